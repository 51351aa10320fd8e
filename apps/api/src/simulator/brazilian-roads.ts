/**
 * Real roads the demo's travels take (ADR 38): the towns each highway passes through, in order, from the demo's
 * origin address to its destination address. Sentinela has no route for a travel (only its origin and destination),
 * and the simulator must not need a routing server, so a travel between the ends of one of these roads follows it;
 * any other travel follows the road-like path of `roadPath`.
 */
import { distanceKm, pathThrough, roadPath, type LatLng, type RoadPath } from './road-path';

interface Road {
  name: string;
  points: LatLng[];
}

/** Via Dutra (BR-116), São Paulo (Av. Paulista) → Rio de Janeiro (Av. Brasil, Caju). */
const VIA_DUTRA: Road = {
  name: 'Via Dutra (BR-116)',
  points: [
    [-23.5653, -46.6515], // Av. Paulista
    [-23.5225, -46.63], // Marginal Tietê
    [-23.513, -46.58], // start of the Dutra, Vila Maria
    [-23.445, -46.47], // Guarulhos, by Cumbica
    [-23.395, -46.33], // Arujá
    [-23.345, -46.24], // Santa Isabel
    [-23.29, -45.965], // Jacareí
    [-23.205, -45.89], // São José dos Campos
    [-23.095, -45.715], // Caçapava
    [-23.03, -45.57], // Taubaté
    [-22.945, -45.45], // Pindamonhangaba
    [-22.895, -45.3], // Roseira
    [-22.85, -45.235], // Aparecida
    [-22.805, -45.195], // Guaratinguetá
    [-22.735, -45.115], // Lorena
    [-22.67, -45.01], // Cachoeira Paulista
    [-22.58, -44.96], // Cruzeiro
    [-22.57, -44.9], // Lavrinhas
    [-22.54, -44.775], // Queluz
    [-22.495, -44.56], // Itatiaia
    [-22.47, -44.45], // Resende
    [-22.42, -44.29], // Porto Real
    [-22.544, -44.171], // Barra Mansa
    [-22.523, -44.104], // Volta Redonda
    [-22.625, -43.9], // Piraí
    [-22.65, -43.72], // Paracambi
    [-22.72, -43.63], // Seropédica
    [-22.72, -43.56], // Queimados
    [-22.755, -43.46], // Nova Iguaçu
    [-22.8, -43.365], // Pavuna
    [-22.85, -43.27], // Av. Brasil
    [-22.8864, -43.2216], // Caju
  ],
};

/** BR-040, Belo Horizonte (Av. Afonso Pena) → Rio de Janeiro (Caju), through Juiz de Fora and Petrópolis. */
const BR_040: Road = {
  name: 'BR-040',
  points: [
    [-19.9245, -43.9352], // Av. Afonso Pena
    [-19.98, -43.95], // Belvedere
    [-20.06, -43.97], // Jardim Canadá, Nova Lima
    [-20.28, -43.91], // Itabirito
    [-20.499, -43.858], // Congonhas
    [-20.66, -43.786], // Conselheiro Lafaiete
    [-20.83, -43.815], // Cristiano Otoni
    [-20.955, -43.805], // Carandaí
    [-21.225, -43.773], // Barbacena
    [-21.456, -43.552], // Santos Dumont
    [-21.764, -43.35], // Juiz de Fora
    [-21.87, -43.317], // Matias Barbosa
    [-22.03, -43.21], // Comendador Levy Gasparian
    [-22.116, -43.209], // Três Rios
    [-22.23, -43.105], // Areal
    [-22.387, -43.133], // Itaipava
    [-22.505, -43.178], // Petrópolis
    [-22.7, -43.28], // foot of the Serra de Petrópolis
    [-22.785, -43.311], // Duque de Caxias
    [-22.8864, -43.2216], // Caju
  ],
};

export const ROADS: readonly Road[] = [VIA_DUTRA, BR_040];

/** How far (km) a travel's ends may lie from a road's ends for the travel to take it. */
const ENDS_WITHIN_KM = 25;

/** The road from `from` to `to`: one of ROADS (either way) when its ends match, else a road-like path. */
export function roadBetween(from: LatLng, to: LatLng, seed = 1): RoadPath & { name: string | null } {
  for (const road of ROADS) {
    const first = road.points[0]!;
    const last = road.points[road.points.length - 1]!;
    if (distanceKm(from, first) <= ENDS_WITHIN_KM && distanceKm(to, last) <= ENDS_WITHIN_KM) return { ...pathThrough(road.points), name: road.name };
    if (distanceKm(from, last) <= ENDS_WITHIN_KM && distanceKm(to, first) <= ENDS_WITHIN_KM) return { ...pathThrough([...road.points].reverse()), name: road.name };
  }
  return { ...roadPath(from, to, seed), name: null };
}
