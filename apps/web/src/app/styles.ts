// Mantine styles per component (STACK-NOTES: ~6 kB instead of 36 kB gzip). Order matters: global
// styles first, then shared building blocks, then components. Add a component's file when using it.
// This file is in every route's first load: it holds what the signed-out shell and /login use. What most other
// screens share (the signed-in shell, modals, badges, cards...) is in screen-styles.ts, loaded with each screen but
// /login (pages.tsx); a component only a few screens use (tables, tabs, selects, menus, steppers...) imports its
// file where it is used (e.g. components/DataTable.tsx), so it loads with that screen's chunk (ADR 0040).
import '@mantine/core/styles/baseline.css';
import '@mantine/core/styles/default-css-variables.css';
import '@mantine/core/styles/global.css';

import '@mantine/core/styles/UnstyledButton.css';
import '@mantine/core/styles/Paper.css';
import '@mantine/core/styles/Group.css';
import '@mantine/core/styles/Loader.css';
import '@mantine/core/styles/Input.css';
import '@mantine/core/styles/ActionIcon.css';

import '@mantine/core/styles/Alert.css';
import '@mantine/core/styles/Anchor.css';
import '@mantine/core/styles/Burger.css';
import '@mantine/core/styles/Button.css';
import '@mantine/core/styles/Center.css';
import '@mantine/core/styles/Container.css';
import '@mantine/core/styles/PasswordInput.css';
import '@mantine/core/styles/Stack.css';
import '@mantine/core/styles/Text.css';
import '@mantine/core/styles/Title.css';

