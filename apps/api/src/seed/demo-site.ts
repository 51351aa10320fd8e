import type { Db } from '../db/database';

/** Plans and FAQ of the landing page (A1): what a visitor of a fresh `npm start` reads. */
const PLANS = [
  {
    name: 'Essencial',
    maxDevices: 10,
    monthly: 149.9,
    annual: 1529,
    features: ['Até 10 sensores', 'Leituras a cada 5 minutos', 'Alarmes por e-mail', 'Relatórios PDF e Excel assinados', '1 usuário administrador'],
  },
  {
    name: 'Profissional',
    maxDevices: 50,
    monthly: 399.9,
    annual: 4079,
    features: ['Até 50 sensores', 'Viagens com rastreamento ao vivo', 'Alarmes por e-mail e Telegram', 'Relatórios PDF e Excel assinados', 'Até 10 usuários'],
  },
  {
    name: 'Empresarial',
    maxDevices: 200,
    monthly: 899.9,
    annual: 9179,
    features: ['Até 200 sensores', 'Viagens e locais ilimitados', 'Todos os canais de alarme', 'Integração por MQTT e HTTP', 'Usuários ilimitados e suporte prioritário'],
  },
];

const FAQ = [
  ['O que o Sentinela monitora?', 'Temperatura, umidade, bateria e posição de sensores Bluetooth (beacons) em cargas, câmaras frias, farmácias e pontos de venda, em tempo real.'],
  ['Preciso instalar algum aplicativo?', 'Não. Tudo funciona no navegador. Os gateways enviam as leituras dos sensores pela internet, por HTTP ou MQTT.'],
  ['Como sou avisado de uma temperatura fora da faixa?', 'Cada sensor tem limites de temperatura e umidade. Ao sair da faixa, um alarme é aberto e enviado pelos canais que você escolher, como e-mail e Telegram.'],
  ['Os relatórios têm validade para auditorias?', 'Sim. Os relatórios em PDF são assinados digitalmente e qualquer pessoa pode conferir a autenticidade na página Validar relatório.'],
  ['Posso mudar de plano depois?', 'Sim. Na tela Planos você escolhe outro plano ou ciclo a qualquer momento; a mudança vale a partir da próxima cobrança.'],
  ['Meus dados ficam separados dos de outras empresas?', 'Sim. Cada empresa vê apenas os próprios sensores, viagens, usuários e relatórios.'],
] as const;

export async function seedDemoSite(db: Db): Promise<void> {
  for (const [position, plan] of PLANS.entries()) {
    const row = await db.insertInto('plans').values({ name: plan.name, position, max_devices: plan.maxDevices, retired_at: null }).returning('id').executeTakeFirstOrThrow();
    const features = JSON.stringify(plan.features);
    await db
      .insertInto('plan_cycles')
      .values([
        { plan_id: row.id, name: 'Mensal', value: plan.monthly, features },
        { plan_id: row.id, name: 'Anual', value: plan.annual, features },
      ])
      .execute();
  }
  await db
    .insertInto('faq')
    .values(FAQ.map(([question, answer], position) => ({ question, answer, position })))
    .execute();
}
