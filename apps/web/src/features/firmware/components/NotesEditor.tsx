import '@mantine/core/styles/Typography.css';
import '@mantine/tiptap/styles.css';
import { RichTextEditor, type RichTextEditorLabels } from '@mantine/tiptap';
import { useEditor } from '@tiptap/react';
import StarterKit from '@tiptap/starter-kit';
import { useEffect } from 'react';

/** The toolbar's accessible names in Portuguese (the editor ships English ones). */
const LABELS: Partial<RichTextEditorLabels> = {
  boldControlLabel: 'Negrito',
  italicControlLabel: 'Itálico',
  underlineControlLabel: 'Sublinhado',
  strikeControlLabel: 'Tachado',
  clearFormattingControlLabel: 'Limpar formatação',
  h2ControlLabel: 'Título',
  h3ControlLabel: 'Subtítulo',
  bulletListControlLabel: 'Lista',
  orderedListControlLabel: 'Lista numerada',
  blockquoteControlLabel: 'Citação',
  codeControlLabel: 'Código',
  linkControlLabel: 'Link',
  unlinkControlLabel: 'Remover link',
  linkEditorInputLabel: 'Endereço do link',
  linkEditorInputPlaceholder: 'https://exemplo.com.br',
  undoControlLabel: 'Desfazer',
  redoControlLabel: 'Refazer',
};

interface NotesEditorProps {
  /** HTML the editor starts with (the server's sanitised notes when reading). */
  value: string;
  onChange?: (html: string) => void;
  /** Read-only: Ver Notas shows the notes as formatted text, no toolbar. */
  readOnly?: boolean;
  label?: string;
}

/**
 * The release notes editor (M1): tiptap on Mantine. What it produces is HTML of a few formatting tags, which the
 * server sanitises again; shown read-only, the notes go through the editor's own schema, never into innerHTML.
 */
export function NotesEditor({ value, onChange, readOnly = false, label = 'Notas da versão' }: NotesEditorProps) {
  const editor = useEditor({
    extensions: [StarterKit.configure({ link: { openOnClick: readOnly, autolink: true, protocols: ['http', 'https', 'mailto'] } })],
    content: value,
    editable: !readOnly,
    immediatelyRender: true,
    shouldRerenderOnTransaction: false,
    editorProps: { attributes: { 'aria-label': label, ...(readOnly ? { 'aria-readonly': 'true' } : {}) } },
    onUpdate: ({ editor: current }) => onChange?.(current.isEmpty ? '' : current.getHTML()),
  });

  // Ver Notas reuses the editor for another version's notes.
  useEffect(() => {
    if (editor && readOnly && editor.getHTML() !== value) editor.commands.setContent(value, { emitUpdate: false });
  }, [editor, readOnly, value]);

  return (
    <RichTextEditor editor={editor} labels={LABELS} variant={readOnly ? 'subtle' : 'default'}>
      {!readOnly && (
        <RichTextEditor.Toolbar>
          <RichTextEditor.ControlsGroup>
            <RichTextEditor.Bold />
            <RichTextEditor.Italic />
            <RichTextEditor.Underline />
            <RichTextEditor.Strikethrough />
            <RichTextEditor.ClearFormatting />
          </RichTextEditor.ControlsGroup>
          <RichTextEditor.ControlsGroup>
            <RichTextEditor.H2 />
            <RichTextEditor.H3 />
            <RichTextEditor.BulletList />
            <RichTextEditor.OrderedList />
            <RichTextEditor.Blockquote />
            <RichTextEditor.Code />
          </RichTextEditor.ControlsGroup>
          <RichTextEditor.ControlsGroup>
            <RichTextEditor.Link />
            <RichTextEditor.Unlink />
          </RichTextEditor.ControlsGroup>
          <RichTextEditor.ControlsGroup>
            <RichTextEditor.Undo />
            <RichTextEditor.Redo />
          </RichTextEditor.ControlsGroup>
        </RichTextEditor.Toolbar>
      )}
      <RichTextEditor.Content mih={readOnly ? undefined : 160} />
    </RichTextEditor>
  );
}
