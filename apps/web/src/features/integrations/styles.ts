// Mantine styles of the components only this feature uses (the app loads the common ones).
import '@mantine/core/styles/Code.css';
import '@mantine/core/styles/Tooltip.css';
import '@mantine/core/styles/Tabs.css';
import '@mantine/core/styles/Checkbox.css';
import '@mantine/core/styles/Combobox.css';
import '@mantine/core/styles/Card.css';
