import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';

/**
 * The pages a browser gets when it navigates to a report's file (ADR 0070): the documented client opens
 * `/api/report/files/{id}` in a new window right after asking for the report, so while the file is being generated
 * that window shows a pt-BR page that waits and then downloads it; a link that no longer works says so in words.
 * API clients (Accept: application/json) keep getting the JSON answers.
 */

/** A browser navigating (a link, a new window, the address bar), as opposed to a script's fetch. */
export function isNavigation(request: FastifyRequest): boolean {
  const dest = request.headers['sec-fetch-dest'];
  if (dest) return dest === 'document';
  const accept = request.headers.accept ?? '';
  return accept.includes('text/html');
}

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

const STYLE = `body{font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;background:#f1f3f5;color:#212529;margin:0}
main{max-width:32rem;margin:12vh auto;padding:2rem 1.5rem;background:#fff;border-radius:8px;box-shadow:0 1px 3px rgba(0,0,0,.12)}
h1{font-size:1.25rem;margin:0 0 .75rem;color:#0b7285}p{line-height:1.5;margin:.5rem 0}
.status{display:flex;gap:.75rem;align-items:center}.spinner{width:1.25rem;height:1.25rem;border:3px solid #c5f6fa;border-top-color:#1098ad;border-radius:50%;animation:s 1s linear infinite;flex:none}
@keyframes s{to{transform:rotate(360deg)}}.done .spinner{display:none}a{color:#0b7285}.muted{color:#868e96;font-size:.875rem}
@media (max-width:480px){main{margin:0;border-radius:0;min-height:100vh;box-sizing:border-box}}`;

/**
 * Polls the file's status every two seconds; once generated, navigates to the file (the attachment downloads and
 * this page stays, saying so), or shows why it failed. Served with a CSP that allows exactly this script (its hash).
 */
const WAIT_SCRIPT = `(function(){var el=document.getElementById('state'),again=document.getElementById('again'),hint=document.getElementById('hint'),file=location.pathname,tries=0;
function say(t){el.textContent=t}
function failed(t){document.body.classList.add('done');say(t);hint.textContent='Peça o relatório de novo no Sentinela, na tela em que o pediu.'}
function poll(){tries++;fetch(file+'/status',{headers:{accept:'application/json'},cache:'no-store'}).then(function(r){
if(!r.ok){return r.json().then(function(b){throw new Error(b&&b.error||'')})}return r.json()}).then(function(b){
if(b.status.id===2){document.body.classList.add('done');say('Relatório pronto. O download começou.');again.hidden=false;location.replace(file);return}
if(b.status.id===3){failed(b.error||'Não foi possível gerar o relatório.');return}
setTimeout(poll,tries<30?2000:5000)}).catch(function(e){failed(e.message||'Não foi possível acompanhar o relatório. Baixe-o na tela Relatórios do Sentinela.')})}
setTimeout(poll,1500)})();`;

const WAIT_SCRIPT_HASH = `'sha256-${createHash('sha256').update(WAIT_SCRIPT).digest('base64')}'`;

function page(title: string, body: string, script?: string): string {
  return `<!doctype html><html lang="pt-BR"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<meta name="robots" content="noindex"><title>${escapeHtml(title)} — Sentinela</title><style>${STYLE}</style></head>
<body><main>${body}</main>${script ? `<script>${script}</script>` : ''}</body></html>`;
}

function send(reply: FastifyReply, status: number, html: string, scriptHash?: string) {
  const scriptSrc = scriptHash ? `script-src ${scriptHash}` : "script-src 'none'";
  return reply
    .status(status)
    .header('content-type', 'text/html; charset=utf-8')
    .header('cache-control', 'no-store')
    .header('content-security-policy', `default-src 'none'; ${scriptSrc}; style-src 'unsafe-inline'; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`)
    .header('referrer-policy', 'no-referrer')
    .send(html);
}

/** While the file is being generated (202): "O relatório está sendo gerado...", then the download. */
export function sendWaitingPage(reply: FastifyReply, subject: string) {
  const body = `<h1>${escapeHtml(subject)}</h1>
<p class="status"><span class="spinner" aria-hidden="true"></span><span id="state" role="status" aria-live="polite">O relatório está sendo gerado... O download começará automaticamente.</span></p>
<p id="again" hidden><a href="">Baixar novamente</a></p>
<p class="muted" id="hint">Você pode fechar esta janela depois do download. O relatório também fica na tela Relatórios do Sentinela.</p>`;
  return send(reply, 202, page('Gerando relatório', body, WAIT_SCRIPT), WAIT_SCRIPT_HASH);
}

/** A link that does not open the file (expired, unknown, failed report): the reason, in words. */
export function sendMessagePage(reply: FastifyReply, status: number, message: string) {
  const body = `<h1>Relatório</h1><p role="alert">${escapeHtml(message)}</p>
<p class="muted">Entre no Sentinela e baixe o relatório na tela Relatórios.</p>`;
  return send(reply, status, page('Relatório', body));
}
