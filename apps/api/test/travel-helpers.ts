import type { TestContext } from './context';

/** The demo's travels (apps/api/src/seed/demo.ts) by tracking code. */
export const CODES = {
  auroraInProgress: 'AUR7K2M9QX', // São Paulo → Rio, truck 01:01 (João's), responsible João
  auroraNotStarted: 'AUR3H8T4WN', // Campinas → Curitiba, truck 02 (01:02, João's), responsible João
  auroraFinished: 'AUR9P5D2LC', // São Paulo → BH, truck 02 (01:02), responsible aurora.adm
  vidaPaused: 'VDF4R7N6YB', // Brasília → BH, box 01 (02:02, Maria's)
  vidaInProgress: 'VDF8M2X5KS', // BH → Rio, box 02 (02:03, Maria's)
} as const;

export const MACS = {
  truck1: 'C3:00:00:00:01:01',
  truck2: 'C3:00:00:00:01:02',
  chamber: 'C3:00:00:00:01:03',
  freezer: 'C3:00:00:00:01:04',
  vaccines: 'C3:00:00:00:02:01',
  box1: 'C3:00:00:00:02:02',
  box2: 'C3:00:00:00:02:03',
} as const;

export const PLACES = {
  campinas: { address: 'Rod. Anhanguera, km 100 - Campinas - SP', location: [-22.9056, -47.0608] as [number, number] },
  santos: { address: 'Porto de Santos - Santos - SP', location: [-23.9608, -46.3336] as [number, number] },
};

export async function travelId(ctx: TestContext, code: string): Promise<string> {
  return (await ctx.db.selectFrom('travels').select('id').where('code', '=', code).executeTakeFirstOrThrow()).id;
}

export async function deviceId(ctx: TestContext, mac: string): Promise<string> {
  return (await ctx.db.selectFrom('devices').select('id').where('mac', '=', mac).executeTakeFirstOrThrow()).id;
}

export async function userId(ctx: TestContext, username: string): Promise<string> {
  return (await ctx.db.selectFrom('users').select('id').where('username', '=', username).executeTakeFirstOrThrow()).id;
}
