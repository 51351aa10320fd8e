import { BEACON_MESSAGES as B, deviceModel, deviceName, macAddress, type BeaconImportResult, type Device, type DiscoveredDevice, type RegisterBeaconBody } from '@sentinela/contract';
import type { AppConfig } from '../../config/config';
import type { Db } from '../../db/database';
import type { Clock } from '../../lib/clock';
import { conflict, notFound } from '../../lib/errors';
import type { ClientMeta } from '../auth/session-service';
import { recordDeviceEvents } from '../device-events/repository';
import { findDeviceInScope } from '../devices/repository';
import type { SpreadsheetReaderPool } from '../reports/excel-upload/reader-pool';
import type { CellValue } from '../reports/excel-upload/sheet-reader';
import { readImportFile } from './import-file';
import { buildBeaconImportTemplate } from './import-template';
import { forgetDiscovered, insertBeacons, listDiscovered, registeredMacs, type NewBeacon } from './repository';

interface Actor {
  userId: string;
  meta: ClientMeta;
}

const registeredMessage = (mac: string) => `Dispositivo cadastrado (MAC ${mac})`;

/** X1: the super admin's beacon registry: one by hand, a spreadsheet at a time, or from the MACs gateways discovered. */
export class BeaconService {
  private templateFile: Promise<Buffer> | null = null;

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly config: AppConfig,
    private readonly readers: SpreadsheetReaderPool,
  ) {}

  async register(body: RegisterBeaconBody, by: Actor): Promise<Device> {
    const beacon: NewBeacon = { mac: body.mac, name: body.name, model: body.model ?? null };
    const ids = await this.store([beacon], by);
    const id = ids.get(beacon.mac);
    if (!id) throw conflict(B.macTaken(beacon.mac));
    const device = await findDeviceInScope(this.db, { kind: 'all' }, id);
    if (!device) throw notFound('Dispositivo não encontrado.');
    return device;
  }

  /** One message per refused row (the first problem of the row); every other row is registered. */
  async import(data: Buffer, by: Actor): Promise<BeaconImportResult> {
    const lines = await readImportFile(data, this.readers, { maxEntries: this.config.reportExcelMaxEntries, maxInflatedBytes: this.config.reportExcelMaxInflatedBytes });
    const errors: { row: number; message: string }[] = [];
    const good: { row: number; beacon: NewBeacon }[] = [];
    const firstRowOf = new Map<string, number>();
    for (const { row, cells } of lines) {
      const { mac: macCell, name: nameCell, model: modelCell } = cells;
      const mac = macAddress.safeParse(cellText(macCell));
      if (!mac.success) {
        errors.push({ row, message: `Linha ${row}: ${mac.error.issues[0]!.message}${macCell === null || macCell === undefined ? '' : ` (${clip(cellText(macCell))})`}` });
        continue;
      }
      const name = deviceName.safeParse(cellText(nameCell));
      if (!name.success) {
        errors.push({ row, message: `Linha ${row}: ${name.error.issues[0]!.message}` });
        continue;
      }
      const model = deviceModel.safeParse(cellText(modelCell));
      if (!model.success) {
        errors.push({ row, message: `Linha ${row}: ${model.error.issues[0]!.message}` });
        continue;
      }
      const earlier = firstRowOf.get(mac.data);
      if (earlier !== undefined) {
        errors.push({ row, message: `Linha ${row}: o MAC ${mac.data} já aparece na linha ${earlier}.` });
        continue;
      }
      firstRowOf.set(mac.data, row);
      good.push({ row, beacon: { mac: mac.data, name: name.data, model: model.data ?? null } });
    }

    const taken = await registeredMacs(this.db, good.map((g) => g.beacon.mac));
    const fresh = good.filter((g) => {
      if (!taken.has(g.beacon.mac)) return true;
      errors.push({ row: g.row, message: `Linha ${g.row}: ${B.macTaken(g.beacon.mac)}` });
      return false;
    });
    const ids = await this.store(fresh.map((g) => g.beacon), by);
    // Registered by someone else between the check and the insert.
    for (const g of fresh) if (!ids.has(g.beacon.mac)) errors.push({ row: g.row, message: `Linha ${g.row}: ${B.macTaken(g.beacon.mac)}` });
    errors.sort((a, b) => a.row - b.row);
    return { registered: ids.size, errors: errors.map((e) => e.message) };
  }

  /** The same file for everyone: built once per process (exceljs takes a few hundred milliseconds to write it). */
  template(): Promise<Buffer> {
    this.templateFile ??= buildBeaconImportTemplate().catch((error: unknown) => {
      this.templateFile = null;
      throw error;
    });
    return this.templateFile;
  }

  discovered(): Promise<DiscoveredDevice[]> {
    return listDiscovered(this.db);
  }

  /** Inserts, records a "Cadastro" event per device (D7) and clears the MACs from the discovered list, in one transaction. */
  private async store(beacons: readonly NewBeacon[], by: Actor): Promise<Map<string, string>> {
    if (beacons.length === 0) return new Map();
    const at = this.clock.now();
    return this.db.transaction().execute(async (trx) => {
      const rows = await insertBeacons(trx, beacons, at);
      await recordDeviceEvents(trx, rows.map((r) => ({ deviceId: r.id, type: 'register', message: registeredMessage(r.mac) })), { userId: by.userId, meta: by.meta, at });
      await forgetDiscovered(trx, rows.map((r) => r.mac));
      return new Map(rows.map((r) => [r.mac, r.id]));
    });
  }
}

/** A cell as the text a person typed: numbers as written, dates and booleans as text (then refused by the rules). */
function cellText(value: CellValue | undefined): string | null {
  if (value === null || value === undefined) return null;
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? '' : value.toISOString();
  return String(value);
}

/** What a message echoes of a cell: short, one line. */
function clip(text: string | null): string {
  let line = '';
  for (const ch of text ?? '') line += ch.charCodeAt(0) < 32 || ch.charCodeAt(0) === 127 ? ' ' : ch;
  line = line.trim();
  return line.length > 40 ? `${line.slice(0, 40)}…` : line;
}
