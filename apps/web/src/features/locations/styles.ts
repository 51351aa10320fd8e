// Mantine styles of the components only the Locais screen uses (app/styles.ts holds the shared ones); they load
// with the screen's chunk.
import '@mantine/core/styles/NumberInput.css';
import '@mantine/core/styles/Tooltip.css';
// The mapping studies' form (X12): the sensors' multi-select and the two-column grid.
import '@mantine/core/styles/Pill.css';
import '@mantine/core/styles/PillsInput.css';
import '@mantine/core/styles/SimpleGrid.css';
