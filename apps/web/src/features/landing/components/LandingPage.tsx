import '@mantine/core/styles/Accordion.css';
import '@mantine/core/styles/Menu.css';
import { Accordion, Alert, Anchor, Box, Burger, Button, Center, Container, Group, Loader, Menu, Paper, SimpleGrid, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconAlertCircle, IconBell, IconBluetooth, IconChartLine, IconFileCertificate, IconMapPin, IconTemperature } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { Link, useNavigate } from 'react-router';
import { PlanCards } from '../../../components/PlanCards';
import { errorMessage } from '../../../lib/api-client';
import { paths, withQuery } from '../../../lib/paths';
import { useFaq, usePlans } from '../api/site';
import { ContactSection } from './ContactSection';

const SECTIONS = [
  { id: 'sobre', label: 'Sobre' },
  { id: 'funcionalidades', label: 'Funcionalidades' },
  { id: 'precos', label: 'Preços' },
  { id: 'faq', label: 'Faq' },
  { id: 'contato', label: 'Contato' },
] as const;

const FEATURES = [
  { icon: IconTemperature, title: 'Temperatura e umidade em tempo real', text: 'Cada sensor envia leituras a cada poucos minutos; você vê o estado de todas as cargas e câmaras numa só tela.' },
  { icon: IconBell, title: 'Alarmes que chegam a quem precisa', text: 'Limites por sensor e por viagem. Fora da faixa, o alarme abre na hora e é avisado por e-mail e Telegram.' },
  { icon: IconMapPin, title: 'Viagens rastreadas no mapa', text: 'Origem, destino, trajeto percorrido e a última posição de cada carga, com um código para o seu cliente acompanhar.' },
  { icon: IconChartLine, title: 'Histórico e gráficos', text: 'Máximas, mínimas e médias de qualquer período, com filtros e gráficos por sensor.' },
  { icon: IconFileCertificate, title: 'Relatórios assinados', text: 'PDF e Excel prontos para auditoria, assinados digitalmente e verificáveis por qualquer pessoa.' },
  { icon: IconBluetooth, title: 'Sensores Bluetooth de baixo consumo', text: 'Beacons BLE com bateria de longa duração; gateways enviam as leituras por HTTP ou MQTT.' },
];

/** `/` for visitors (A1): what Sentinela is, its plans and FAQ from the server, and the contact form. */
export function LandingPage() {
  const navigate = useNavigate();
  const plans = usePlans();
  const faq = useFaq();

  return (
    <Box>
      <Box component="header" py="sm" style={{ borderBottom: '1px solid var(--mantine-color-gray-3)', position: 'sticky', top: 0, background: 'var(--mantine-color-body)', zIndex: 10 }}>
        <Container size="lg">
          <Group justify="space-between">
            <Anchor component={Link} to={paths.home} fw={700} size="lg" underline="never">
              Sentinela
            </Anchor>
            <Group gap="xs" component="nav" aria-label="Seções" visibleFrom="md">
              {SECTIONS.map((s) => (
                <Button key={s.id} component="a" href={`#${s.id}`} variant="subtle">
                  {s.label}
                </Button>
              ))}
              <Button component={Link} to={paths.login}>
                Entrar
              </Button>
            </Group>
            <Group gap="xs" hiddenFrom="md">
              <Button component={Link} to={paths.login} size="sm">
                Entrar
              </Button>
              <Menu position="bottom-end" width={200}>
                <Menu.Target>
                  <Burger aria-label="Abrir menu" size="sm" />
                </Menu.Target>
                <Menu.Dropdown>
                  {SECTIONS.map((s) => (
                    <Menu.Item key={s.id} component="a" href={`#${s.id}`}>
                      {s.label}
                    </Menu.Item>
                  ))}
                  <Menu.Item component={Link} to={paths.register}>
                    Cadastre-se
                  </Menu.Item>
                </Menu.Dropdown>
              </Menu>
            </Group>
          </Group>
        </Container>
      </Box>

      <Section id="sobre">
        <Stack align="center" ta="center" gap="md" py="xl">
          <Title order={1} fz={{ base: 30, sm: 44 }}>
            Sua carga na temperatura certa, do embarque à entrega
          </Title>
          <Text size="lg" c="dimmed" maw={720}>
            O Sentinela monitora sensores de temperatura, umidade, bateria e localização em caminhões, câmaras frias,
            farmácias e supermercados. Você acompanha tudo em tempo real, recebe alarmes na hora e guarda relatórios
            assinados para auditorias e clientes.
          </Text>
          <Group>
            <Button size="md" component="a" href="#precos">
              Ver planos
            </Button>
            <Button size="md" variant="default" component={Link} to={paths.register}>
              Cadastre-se
            </Button>
          </Group>
        </Stack>
      </Section>

      <Section id="funcionalidades" title="Funcionalidades" tinted>
        <SimpleGrid cols={{ base: 1, sm: 2, md: 3 }}>
          {FEATURES.map((f) => (
            <Paper key={f.title} withBorder radius="md" p="lg">
              <Stack gap="xs">
                <ThemeIcon size="lg" variant="light">
                  <f.icon size={20} />
                </ThemeIcon>
                <Text fw={600}>{f.title}</Text>
                <Text size="sm" c="dimmed">
                  {f.text}
                </Text>
              </Stack>
            </Paper>
          ))}
        </SimpleGrid>
      </Section>

      <Section id="precos" title="Preços">
        {plans.isPending && <Spinner />}
        {plans.isError && <LoadError error={plans.error} fallback="Não foi possível carregar os planos." />}
        {plans.isSuccess && (
          <PlanCards plans={plans.data} onSelect={(plan, cycle) => void navigate(withQuery(paths.register, { plan_id: plan._id, cicle_id: cycle.id }))} />
        )}
        <Paper withBorder radius="md" p="lg" mt="xl" bg="var(--mantine-color-teal-0)">
          <Group justify="space-between">
            <Stack gap={4}>
              <Text fw={700}>Precisa de um plano sob medida?</Text>
              <Text size="sm" c="dimmed">
                Muitos sensores, integrações ou necessidades especiais: montamos um plano para a sua operação.
              </Text>
            </Stack>
            <Button component="a" href="#contato" variant="outline">
              Fale conosco
            </Button>
          </Group>
        </Paper>
      </Section>

      <Section id="faq" title="Perguntas frequentes" tinted>
        {faq.isPending && <Spinner />}
        {faq.isError && <LoadError error={faq.error} fallback="Não foi possível carregar as perguntas." />}
        {faq.isSuccess && (
          <Accordion variant="separated" maw={820} mx="auto">
            {faq.data.map((item) => (
              <Accordion.Item key={item.question} value={item.question}>
                <Accordion.Control>{item.question}</Accordion.Control>
                <Accordion.Panel>{item.answer}</Accordion.Panel>
              </Accordion.Item>
            ))}
          </Accordion>
        )}
      </Section>

      <Section id="contato" title="Contato">
        <ContactSection />
      </Section>

      <Box component="footer" py="xl" style={{ borderTop: '1px solid var(--mantine-color-gray-3)' }}>
        <Container size="lg">
          <Group justify="space-between">
            <Text size="sm" c="dimmed">
              © {new Date().getFullYear()} Sentinela · Monitoramento de sensores e da cadeia fria
            </Text>
            <Group gap="md">
              <Anchor component={Link} to={paths.login} size="sm">
                Entrar
              </Anchor>
              <Anchor component={Link} to={paths.register} size="sm">
                Cadastre-se
              </Anchor>
              <Anchor component={Link} to={paths.reportValidator} size="sm">
                Validar relatório
              </Anchor>
            </Group>
          </Group>
          <Text size="xs" c="dimmed" mt="sm">
            Aplicativos para Android e iOS em breve na Google Play e na App Store.
          </Text>
        </Container>
      </Box>
    </Box>
  );
}

function Section({ id, title, tinted, children }: { id: string; title?: string; tinted?: boolean; children: ReactNode }) {
  return (
    <Box component="section" id={id} py={{ base: 40, sm: 64 }} bg={tinted ? 'var(--mantine-color-gray-0)' : undefined} style={{ scrollMarginTop: 64 }}>
      <Container size="lg">
        {title && (
          <Title order={2} ta="center" mb="xl">
            {title}
          </Title>
        )}
        {children}
      </Container>
    </Box>
  );
}

function Spinner() {
  return (
    <Center>
      <Loader aria-label="Carregando" />
    </Center>
  );
}

function LoadError({ error, fallback }: { error: unknown; fallback: string }) {
  return (
    <Alert color="red" title="Erro!" icon={<IconAlertCircle />}>
      {errorMessage(error, fallback)}
    </Alert>
  );
}
