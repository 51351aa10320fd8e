// Mantine styles of the components only this screen uses (app/styles.ts holds the shared ones); they load with
// the screen's chunk.
import '@mantine/core/styles/Switch.css';
import '@mantine/core/styles/InlineInput.css';
