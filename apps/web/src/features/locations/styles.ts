// Mantine styles of the components only the Locais screen uses (app/styles.ts holds the shared ones); they load
// with the screen's chunk.
import '@mantine/core/styles/NumberInput.css';
import '@mantine/core/styles/Tooltip.css';
