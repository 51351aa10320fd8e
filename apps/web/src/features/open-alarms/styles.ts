// Mantine styles of the components only the open-alarms badge uses (app/styles.ts holds the shared ones).
import '@mantine/core/styles/Indicator.css';
