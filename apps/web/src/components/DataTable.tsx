import '@mantine/core/styles/Checkbox.css';
import '@mantine/core/styles/Pagination.css';
import '@mantine/core/styles/Table.css';
import { ActionIcon, Box, Center, Checkbox, Group, Loader, Pagination, Stack, Table, Text, TextInput, UnstyledButton, VisuallyHidden } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { IconChevronDown, IconChevronRight, IconChevronUp, IconSearch, IconSelector } from '@tabler/icons-react';
import { Fragment, useMemo, useState, type ReactNode } from 'react';

export interface DataTableColumn<T> {
  key: string;
  header: string;
  render: (row: T) => ReactNode;
  /** Makes the column sortable by this value (null sorts last). */
  sortValue?: (row: T) => string | number | null;
}

export type SortDirection = 'asc' | 'desc';

export interface DataTableProps<T> {
  rows: readonly T[];
  columns: readonly DataTableColumn<T>[];
  rowKey: (row: T) => string;
  /** Text a row is searched by; shows the search box when given. */
  searchText?: (row: T) => string;
  searchPlaceholder?: string;
  /** Rows per page; the documents' tables have no rows-per-page selector. */
  pageSize?: number;
  emptyText?: string;
  loading?: boolean;
  /** Expandable rows: a toggle in the first column opens this content below the row. */
  expandedContent?: (row: T) => ReactNode;
  /** The key of the highlighted (chosen) row. */
  selectedKey?: string | null;
  /** Selectable rows: a checkbox column, whose header box selects or clears the selectable rows of the page. */
  selection?: RowSelection<T>;
  /**
   * On phones (below Mantine's `sm`), the page's rows as cards instead of a table that scrolls sideways; search,
   * sorting (buttons above the cards, "Ordenar:") and pages stay. Expandable rows are the table's (a card shows its
   * details itself). With selectable rows, "Selecionar todos da página" goes above the cards and each card puts
   * `selectBox(row)` (the row's own box; null without selection) where it likes.
   */
  renderCards?: (rows: readonly T[], selectBox: (row: T) => ReactNode) => ReactNode;
}

/** Below Mantine's `sm` breakpoint (48em), where `renderCards` replaces the table. */
export const PHONE_QUERY = '(max-width: 47.99em)';

export interface RowSelection<T> {
  selected: ReadonlySet<string>;
  onChange: (next: ReadonlySet<string>) => void;
  /** Rows that cannot be selected get a disabled box. */
  isSelectable?: (row: T) => boolean;
  /** Accessible name of a row's box ("Selecionar …"). */
  rowLabel: (row: T) => string;
}

const normalize = (text: string) =>
  text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase();

function compare(a: string | number | null, b: string | number | null): number {
  if (a === b) return 0;
  if (a === null) return 1;
  if (b === null) return -1;
  return typeof a === 'number' && typeof b === 'number' ? a - b : String(a).localeCompare(String(b), 'pt-BR');
}

/** A searchable, sortable, paginated table on Mantine, for client-side lists. */
export function DataTable<T>({
  rows,
  columns,
  rowKey,
  searchText,
  searchPlaceholder = 'Pesquisar',
  pageSize = 10,
  emptyText = 'Nada encontrado...',
  loading = false,
  expandedContent,
  selectedKey = null,
  selection,
  renderCards,
}: DataTableProps<T>) {
  // Read at the first render, so a phone never paints the table first.
  const phone = useMediaQuery(PHONE_QUERY, false, { getInitialValueInEffect: false });
  const cards = !!renderCards && phone;
  const [query, setQuery] = useState('');
  const [expanded, setExpanded] = useState<ReadonlySet<string>>(() => new Set());
  const toggleExpanded = (key: string) =>
    setExpanded((previous) => {
      const next = new Set(previous);
      if (next.has(key)) next.delete(key);
      else next.add(key);
      return next;
    });
  const columnCount = columns.length + (expandedContent ? 1 : 0) + (selection ? 1 : 0);
  const [sort, setSort] = useState<{ key: string; direction: SortDirection } | null>(null);
  const [page, setPage] = useState(1);

  const visible = useMemo(() => {
    const needle = normalize(query.trim());
    const filtered = needle && searchText ? rows.filter((row) => normalize(searchText(row)).includes(needle)) : [...rows];
    const sortColumn = sort && columns.find((column) => column.key === sort.key);
    if (sort && sortColumn?.sortValue) {
      const value = sortColumn.sortValue;
      const sign = sort.direction === 'asc' ? 1 : -1;
      filtered.sort((a, b) => sign * compare(value(a), value(b)));
    }
    return filtered;
  }, [rows, query, searchText, sort, columns]);

  const totalPages = Math.max(1, Math.ceil(visible.length / pageSize));
  const currentPage = Math.min(page, totalPages);
  const pageRows = visible.slice((currentPage - 1) * pageSize, currentPage * pageSize);

  const selectableKeys = selection
    ? pageRows.filter((row) => selection.isSelectable?.(row) ?? true).map((row) => rowKey(row))
    : [];
  const pageSelected = selection ? selectableKeys.filter((key) => selection.selected.has(key)).length : 0;
  const toggleRow = (key: string) => {
    if (!selection) return;
    const next = new Set(selection.selected);
    if (next.has(key)) next.delete(key);
    else next.add(key);
    selection.onChange(next);
  };
  const togglePage = () => {
    if (!selection) return;
    const next = new Set(selection.selected);
    const all = pageSelected === selectableKeys.length;
    for (const key of selectableKeys) {
      if (all) next.delete(key);
      else next.add(key);
    }
    selection.onChange(next);
  };

  /** A row's box, in its table row or its card. */
  const rowBox = (row: T): ReactNode =>
    selection ? (
      <Checkbox
        aria-label={selection.rowLabel(row)}
        checked={selection.selected.has(rowKey(row))}
        disabled={!(selection.isSelectable?.(row) ?? true)}
        onChange={() => toggleRow(rowKey(row))}
      />
    ) : null;

  const toggleSort = (key: string) => {
    setSort((previous) =>
      previous?.key === key ? { key, direction: previous.direction === 'asc' ? 'desc' : 'asc' } : { key, direction: 'asc' },
    );
    setPage(1);
  };

  return (
    <Stack gap="sm">
      {searchText && (
        <TextInput
          placeholder={searchPlaceholder}
          aria-label={searchPlaceholder}
          leftSection={<IconSearch size={16} />}
          value={query}
          onChange={(event) => {
            setQuery(event.currentTarget.value);
            setPage(1);
          }}
          maw={360}
        />
      )}
      {cards && visible.length > 0 && <CardsSortBar columns={columns} sort={sort} onSort={toggleSort} />}
      {cards && selection && !loading && pageRows.length > 0 && (
        <Checkbox
          label="Selecionar todos da página"
          checked={selectableKeys.length > 0 && pageSelected === selectableKeys.length}
          indeterminate={pageSelected > 0 && pageSelected < selectableKeys.length}
          disabled={selectableKeys.length === 0}
          onChange={togglePage}
        />
      )}
      {cards && !loading && pageRows.length > 0 && renderCards(pageRows, rowBox)}
      {/* The browser's own scrolling: Mantine's ScrollArea brings the popovers' positioning library (~14 kB gzip)
          into every screen with a table (ADR 0040). */}
      {!cards && (
        <Box style={{ overflowX: 'auto' }}>
          <Table highlightOnHover highlightOnHoverColor="teal.0" verticalSpacing="xs" miw={720}>
            <Table.Thead>
              <Table.Tr>
                {selection && (
                  <Table.Th w={40}>
                    <Checkbox
                      aria-label="Selecionar todos da página"
                      checked={selectableKeys.length > 0 && pageSelected === selectableKeys.length}
                      indeterminate={pageSelected > 0 && pageSelected < selectableKeys.length}
                      disabled={loading || selectableKeys.length === 0}
                      onChange={togglePage}
                    />
                  </Table.Th>
                )}
                {expandedContent && (
                  <Table.Th w={40}>
                    <VisuallyHidden>Detalhes</VisuallyHidden>
                  </Table.Th>
                )}
                {columns.map((column) => (
                  <Table.Th
                    key={column.key}
                    aria-sort={
                      sort?.key === column.key ? (sort.direction === 'asc' ? 'ascending' : 'descending') : undefined
                    }
                  >
                    {column.sortValue ? (
                      <SortButton
                        label={column.header}
                        direction={sort?.key === column.key ? sort.direction : null}
                        onClick={() => toggleSort(column.key)}
                      />
                    ) : (
                      column.header
                    )}
                  </Table.Th>
                ))}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {!loading &&
                pageRows.map((row) => {
                  const key = rowKey(row);
                  const selected = key === selectedKey;
                  const checked = !!selection?.selected.has(key);
                  const open = !!expandedContent && expanded.has(key);
                  return (
                    <Fragment key={key}>
                      <Table.Tr
                        aria-selected={selection ? checked : selectedKey === null ? undefined : selected}
                        bg={selected ? 'teal.1' : checked ? 'teal.0' : undefined}
                      >
                        {selection && <Table.Td>{rowBox(row)}</Table.Td>}
                        {expandedContent && (
                          <Table.Td>
                            <ActionIcon
                              variant="subtle"
                              color="gray"
                              size="sm"
                              aria-label={open ? 'Recolher detalhes' : 'Expandir detalhes'}
                              aria-expanded={open}
                              onClick={() => toggleExpanded(key)}
                            >
                              {open ? <IconChevronDown size={16} /> : <IconChevronRight size={16} />}
                            </ActionIcon>
                          </Table.Td>
                        )}
                        {columns.map((column) => (
                          <Table.Td key={column.key}>{column.render(row)}</Table.Td>
                        ))}
                      </Table.Tr>
                      {open && (
                        <Table.Tr bg={selected ? 'teal.0' : 'gray.0'}>
                          <Table.Td colSpan={columnCount}>{expandedContent(row)}</Table.Td>
                        </Table.Tr>
                      )}
                    </Fragment>
                  );
                })}
            </Table.Tbody>
          </Table>
        </Box>
      )}
      {/* Outside the scrolling table, so that on a phone the message is in view and not centred off-screen. */}
      {loading ? (
        <Center py="md">
          <Loader size="sm" aria-label="Carregando..." />
        </Center>
      ) : (
        pageRows.length === 0 && (
          <Text ta="center" c="dimmed" py="md">
            {emptyText}
          </Text>
        )
      )}
      {totalPages > 1 && (
        <Group justify="flex-end">
          <Pagination total={totalPages} value={currentPage} onChange={setPage} size="sm" />
        </Group>
      )}
    </Stack>
  );
}

/** Sorting for the cards of phones: the sortable columns' headers as buttons. */
function CardsSortBar<T>({
  columns,
  sort,
  onSort,
}: {
  columns: readonly DataTableColumn<T>[];
  sort: { key: string; direction: SortDirection } | null;
  onSort: (key: string) => void;
}) {
  const sortable = columns.filter((column) => column.sortValue);
  if (sortable.length === 0) return null;
  return (
    <Group gap="xs" data-testid="cards-sort">
      <Text size="sm" c="dimmed">
        Ordenar:
      </Text>
      {sortable.map((column) => (
        <SortButton
          key={column.key}
          label={column.header}
          direction={sort?.key === column.key ? sort.direction : null}
          onClick={() => onSort(column.key)}
        />
      ))}
    </Group>
  );
}

function SortButton({
  label,
  direction,
  onClick,
}: {
  label: string;
  direction: SortDirection | null;
  onClick: () => void;
}) {
  const Icon = direction === 'asc' ? IconChevronUp : direction === 'desc' ? IconChevronDown : IconSelector;
  return (
    <UnstyledButton onClick={onClick} fw={700} fz="sm">
      <Group gap={4} wrap="nowrap">
        {label}
        <Icon size={14} aria-hidden />
      </Group>
    </UnstyledButton>
  );
}
