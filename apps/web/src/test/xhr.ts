import { vi } from 'vitest';

export interface RecordedUpload {
  method: string;
  url: string;
  headers: Record<string, string>;
  file: File | null;
}

type Answer = { status: number; body: unknown };

/**
 * Replaces XMLHttpRequest (used for uploads with progress) at the network boundary: each send is recorded, reports
 * upload progress in two steps, then is answered by `handler` (a status and a JSON body; status 0 is a network error).
 */
export function mockXhr(handler: (upload: RecordedUpload) => Answer | Promise<Answer>) {
  const uploads: RecordedUpload[] = [];

  class FakeXhr {
    status = 0;
    responseText = '';
    upload: { onprogress: ((event: ProgressEvent) => void) | null } = { onprogress: null };
    onload: (() => void) | null = null;
    onerror: (() => void) | null = null;
    onabort: (() => void) | null = null;
    private request: RecordedUpload = { method: '', url: '', headers: {}, file: null };
    private aborted = false;

    open(method: string, url: string) {
      this.request = { method, url, headers: {}, file: null };
    }
    setRequestHeader(name: string, value: string) {
      this.request.headers[name.toLowerCase()] = value;
    }
    abort() {
      this.aborted = true;
      this.onabort?.();
    }
    send(body: FormData) {
      const file = body.get('file');
      this.request.file = file instanceof File ? file : null;
      uploads.push(this.request);
      const total = this.request.file?.size || 100;
      void (async () => {
        for (const loaded of [total / 2, total]) {
          await Promise.resolve();
          this.upload.onprogress?.({ lengthComputable: true, loaded, total } as ProgressEvent);
        }
        const answer = await handler(this.request);
        if (this.aborted) return;
        if (answer.status === 0) return this.onerror?.();
        this.status = answer.status;
        this.responseText = JSON.stringify(answer.body);
        this.onload?.();
      })();
    }
  }

  vi.stubGlobal('XMLHttpRequest', FakeXhr);
  return { uploads };
}
