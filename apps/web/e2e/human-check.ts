import { solveChallenge, type Challenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/pbkdf2';
import { e2e } from './environment';

/**
 * A solved sign-up challenge (issue 21 item 5), for tests that sign up through the documented call rather than the
 * page: solved for real, as the page's widget does in its worker.
 */
export async function signUpCheck(): Promise<string> {
  const challenge = (await (await fetch(`${e2e('baseURL')}/api/client/challenge`)).json()) as Challenge;
  const solution = await solveChallenge({ challenge, deriveKey });
  return Buffer.from(JSON.stringify({ challenge, solution })).toString('base64');
}
