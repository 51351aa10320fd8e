// Mantine styles of the components only the reports screens use (app/styles.ts holds the shared ones); they load
// with the screens' chunk.
import '@mantine/core/styles/Progress.css';
import '@mantine/core/styles/Tooltip.css';
import '@mantine/core/styles/List.css';
import '@mantine/core/styles/SimpleGrid.css';
import '@mantine/dropzone/styles.css';
