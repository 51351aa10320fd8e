import { Group, Progress, Stack, Text } from '@mantine/core';
import { Dropzone, type FileRejection } from '@mantine/dropzone';
import { REPORT_MESSAGES } from '@sentinela/contract';
import { IconUpload, IconX } from '@tabler/icons-react';
import type { ComponentType } from 'react';

interface FileDropzoneProps {
  /** The zone's name, e.g. "Validar relatório". */
  title: string;
  hint: string;
  /** MIME types with their extensions: a file matching either is taken (the server has the last word). */
  accept: Record<string, string[]>;
  /** Said when a dropped file is not of an accepted type. */
  wrongTypeMessage: string;
  icon: ComponentType<{ size?: number; stroke?: number; color?: string }>;
  onFile: (file: File) => void;
  onRefused: (message: string) => void;
  /** Share of the file sent, 0 to 1, while uploading; null otherwise. */
  progress: number | null;
}

/** Why a drop was refused, in the documents' terms (one file per upload, of the accepted type). */
function refusal(rejections: FileRejection[], wrongTypeMessage: string): string {
  const codes = rejections.flatMap((rejection) => rejection.errors.map((error) => error.code));
  return codes.includes('too-many-files') ? REPORT_MESSAGES.oneFile : wrongTypeMessage;
}

/** A drag-and-drop zone for one file (click or keyboard opens the file picker), with the upload percent. */
export function FileDropzone({ title, hint, accept, wrongTypeMessage, icon: Icon, onFile, onRefused, progress }: FileDropzoneProps) {
  const uploading = progress !== null;
  const percent = Math.round((progress ?? 0) * 100);
  return (
    <Stack gap="xs">
      <Dropzone
        onDrop={(files) => {
          const [file] = files;
          if (file) onFile(file);
        }}
        onReject={(rejections) => onRefused(refusal(rejections, wrongTypeMessage))}
        accept={accept}
        multiple={false}
        maxFiles={1}
        disabled={uploading}
        radius="md"
      >
        <Group justify="center" gap="md" mih={120} wrap="nowrap" style={{ pointerEvents: 'none' }}>
          {/* The icon keeps its size on a phone; the text wraps instead. */}
          <div style={{ flexShrink: 0, display: 'flex' }}>
            <Dropzone.Accept>
              <IconUpload size={44} stroke={1.5} color="var(--mantine-color-teal-6)" />
            </Dropzone.Accept>
            <Dropzone.Reject>
              <IconX size={44} stroke={1.5} color="var(--mantine-color-red-6)" />
            </Dropzone.Reject>
            <Dropzone.Idle>
              <Icon size={44} stroke={1.5} color="var(--mantine-color-dimmed)" />
            </Dropzone.Idle>
          </div>
          <div>
            <Text size="lg" fw={700}>
              {title}
            </Text>
            <Text size="sm" c="dimmed" mt={4}>
              {hint}
            </Text>
          </div>
        </Group>
      </Dropzone>
      {uploading && (
        <Stack gap={4} data-testid="upload-progress">
          <Progress value={percent} animated={percent < 100} aria-label="Envio do arquivo" />
          <Text size="sm" c="dimmed" ta="right">
            {percent < 100 ? `Enviando arquivo... ${percent}%` : 'Arquivo enviado (100%). Aguarde...'}
          </Text>
        </Stack>
      )}
    </Stack>
  );
}
