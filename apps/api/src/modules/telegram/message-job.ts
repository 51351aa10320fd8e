import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import type { JobLog, JobQueue } from '../../jobs/job-queue';
import type { TelegramBot } from './bot';

export const TELEGRAM_MESSAGE_JOB = 'telegram-message';

const Payload = z.object({ chatId: z.string().regex(/^-?\d{1,20}$/), text: z.string().min(1).max(4096) });
type Payload = z.infer<typeof Payload>;

/**
 * Plain messages to a chat (link confirmations) through a job: a request never waits on the Bot API, and a Bot API
 * that is down is retried with a growing delay.
 */
export class TelegramMessages {
  constructor(
    private readonly jobs: JobQueue,
    bot: TelegramBot,
    log: JobLog,
  ) {
    jobs.define<Payload>({
      name: TELEGRAM_MESSAGE_JOB,
      schema: Payload,
      concurrency: 1,
      retryLimit: 6,
      retryDelaySeconds: 2,
      retryBackoff: true,
      deleteAfterSeconds: 24 * 60 * 60,
      expireInSeconds: 2 * 60,
      handler: async ({ chatId, text }) => {
        await bot.send(chatId, text);
      },
      onFinalFailure: async ({ chatId }, error) => log.error({ err: error, chatId }, 'telegram message given up after its last attempt'),
    });
  }

  async send(chatId: string, text: string): Promise<void> {
    await this.jobs.send(TELEGRAM_MESSAGE_JOB, { chatId, text }, `telegram:${randomUUID()}`);
  }
}
