import { IMAGE_UPLOAD_MAX_BYTES } from '@cdms/contract';
import Image from '@tiptap/extension-image';
import { type Editor, EditorContent, useEditor, useEditorState } from '@tiptap/react';
import StarterKit from '@tiptap/starter-kit';
import { type ChangeEvent, type FormEvent, type ReactNode, useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../lib/api-client.ts';
import { ImageRefusedError, uploadImage } from '../lib/upload-image.ts';
import { useAlert } from './alert-dialog.tsx';
import { Button } from './button.tsx';
import styles from './rich-text-editor.module.css';

interface NoticeEditorProps {
  initialHtml: string;
  /** The id of the visible label ("내용"), so the editing area is announced by it. */
  labelledBy: string;
  /** Hands the editor to the form once it exists (the form reads its HTML on submit). */
  onEditor: (editor: Editor | null) => void;
}

const LINK_PATTERN = /^(https?:\/\/|mailto:)\S+$/i;

/**
 * The rich-text editor of notices and training modules (TipTap; its words are the `notices`
 * namespace's `editor.*`, so a page using it loads that namespace): emphasis, headings, lists, quote, link, and images that
 * are uploaded to the server first (toolbar button, paste or drop) and inserted by their URL —
 * never embedded as data. Only images are sent (prototype-spec §5); any failure says "image upload
 * failed" (§8). Until TipTap has started, a loading text holds the editor's place (§8).
 */
export function NoticeEditor({ initialHtml, labelledBy, onEditor }: NoticeEditorProps) {
  const { t } = useTranslation('notices');
  const alert = useAlert();
  const [uploading, setUploading] = useState(0);
  const fileInputRef = useRef<HTMLInputElement>(null);
  const fileInputId = useId();

  // ProseMirror's paste and drop handlers are set once; they call the latest upload function.
  const uploadRef = useRef<(files: File[], position?: number) => Promise<void>>(async () => {});

  const editor = useEditor({
    // Render after mount: the first render shows the loading text instead of an empty box.
    immediatelyRender: false,
    extensions: [
      StarterKit.configure({
        heading: { levels: [2, 3] },
        link: { openOnClick: false, autolink: true, defaultProtocol: 'https' },
      }),
      Image.configure({ inline: false, allowBase64: false }),
    ],
    content: initialHtml,
    editorProps: {
      attributes: {
        class: styles.prose ?? '',
        role: 'textbox',
        'aria-multiline': 'true',
        'aria-labelledby': labelledBy,
      },
      handlePaste: (_view, event) => {
        const files = Array.from(event.clipboardData?.files ?? []);
        if (files.length === 0) return false;
        void uploadRef.current(files);
        return true;
      },
      handleDrop: (view, event, _slice, moved) => {
        const files = Array.from(event.dataTransfer?.files ?? []);
        if (moved || files.length === 0) return false;
        event.preventDefault();
        const position = view.posAtCoords({ left: event.clientX, top: event.clientY })?.pos;
        void uploadRef.current(files, position);
        return true;
      },
    },
  });

  useEffect(() => {
    onEditor(editor);
    return () => onEditor(null);
  }, [editor, onEditor]);

  uploadRef.current = async (files, position) => {
    if (!editor) return;
    for (const file of files) {
      setUploading((count) => count + 1);
      try {
        const src = await uploadImage(file);
        const image = { type: 'image', attrs: { src, alt: file.name } };
        if (position === undefined) editor.chain().focus().insertContent(image).run();
        else editor.chain().focus().insertContentAt(position, image).run();
      } catch (error) {
        await alert.alert({
          name: 'notice-image-upload-failed',
          message: `${t('editor.uploadFailed')} ${uploadFailureReason(error, t)}`.trim(),
        });
        return; // one message for a failed batch, not one per file
      } finally {
        setUploading((count) => count - 1);
      }
    }
  };

  function onFileChosen(event: ChangeEvent<HTMLInputElement>) {
    const files = Array.from(event.target.files ?? []);
    event.target.value = ''; // choosing the same file again must fire again
    if (files.length > 0) void uploadRef.current(files);
  }

  return (
    <div className={styles.editor}>
      {editor ? (
        <Toolbar
          editor={editor}
          onImage={() => fileInputRef.current?.click()}
          imageDisabled={uploading > 0}
        />
      ) : null}
      <input
        ref={fileInputRef}
        id={fileInputId}
        type="file"
        accept="image/*"
        className={styles.fileInput}
        aria-label={t('editor.imageInput')}
        tabIndex={-1}
        onChange={onFileChosen}
      />
      {editor ? (
        <EditorContent editor={editor} className={styles.content} />
      ) : (
        <div className={`${styles.content} ${styles.loading}`} role="status">
          {t('editor.loading')}
        </div>
      )}
      {uploading > 0 && (
        <p className={styles.uploading} role="status">
          {t('editor.uploading')}
        </p>
      )}
    </div>
  );
}

function uploadFailureReason(
  error: unknown,
  t: (key: string, options?: Record<string, unknown>) => string,
): string {
  if (error instanceof ImageRefusedError) {
    return error.reason === 'not_image'
      ? t('editor.notImage')
      : t('editor.tooLarge', { max: IMAGE_UPLOAD_MAX_BYTES / 1024 / 1024 });
  }
  if (error instanceof ApiError) return error.message;
  return '';
}

function Toolbar({
  editor,
  onImage,
  imageDisabled,
}: {
  editor: Editor;
  onImage: () => void;
  imageDisabled: boolean;
}) {
  const { t } = useTranslation('notices');
  const [linkOpen, setLinkOpen] = useState(false);
  const active = useEditorState({
    editor,
    selector: ({ editor: current }) => ({
      bold: current.isActive('bold'),
      italic: current.isActive('italic'),
      underline: current.isActive('underline'),
      strike: current.isActive('strike'),
      heading2: current.isActive('heading', { level: 2 }),
      heading3: current.isActive('heading', { level: 3 }),
      bulletList: current.isActive('bulletList'),
      orderedList: current.isActive('orderedList'),
      blockquote: current.isActive('blockquote'),
      link: current.isActive('link'),
    }),
  });

  const chain = () => editor.chain().focus();
  return (
    <>
      <div className={styles.toolbar} role="toolbar" aria-label={t('editor.toolbar')}>
        <ToolButton label={t('editor.bold')} pressed={active.bold} onClick={() => chain().toggleBold().run()}>
          <strong>B</strong>
        </ToolButton>
        <ToolButton
          label={t('editor.italic')}
          pressed={active.italic}
          onClick={() => chain().toggleItalic().run()}
        >
          <em>I</em>
        </ToolButton>
        <ToolButton
          label={t('editor.underline')}
          pressed={active.underline}
          onClick={() => chain().toggleUnderline().run()}
        >
          <u>U</u>
        </ToolButton>
        <ToolButton
          label={t('editor.strike')}
          pressed={active.strike}
          onClick={() => chain().toggleStrike().run()}
        >
          <s>S</s>
        </ToolButton>
        <span className={styles.separator} aria-hidden="true" />
        <ToolButton
          label={t('editor.heading2')}
          pressed={active.heading2}
          onClick={() => chain().toggleHeading({ level: 2 }).run()}
        >
          H2
        </ToolButton>
        <ToolButton
          label={t('editor.heading3')}
          pressed={active.heading3}
          onClick={() => chain().toggleHeading({ level: 3 }).run()}
        >
          H3
        </ToolButton>
        <ToolButton
          label={t('editor.bulletList')}
          pressed={active.bulletList}
          onClick={() => chain().toggleBulletList().run()}
        >
          •≡
        </ToolButton>
        <ToolButton
          label={t('editor.orderedList')}
          pressed={active.orderedList}
          onClick={() => chain().toggleOrderedList().run()}
        >
          1.≡
        </ToolButton>
        <ToolButton
          label={t('editor.blockquote')}
          pressed={active.blockquote}
          onClick={() => chain().toggleBlockquote().run()}
        >
          ❝
        </ToolButton>
        <span className={styles.separator} aria-hidden="true" />
        <ToolButton
          label={t('editor.link')}
          pressed={active.link || linkOpen}
          onClick={() => setLinkOpen((open) => !open)}
        >
          {t('editor.link')}
        </ToolButton>
        <ToolButton label={t('editor.image')} disabled={imageDisabled} onClick={onImage}>
          {t('editor.image')}
        </ToolButton>
      </div>
      {linkOpen && (
        <LinkForm
          initialUrl={(editor.getAttributes('link').href as string | undefined) ?? ''}
          hasLink={active.link}
          onApply={(href) => {
            chain().extendMarkRange('link').setLink({ href }).run();
            setLinkOpen(false);
          }}
          onRemove={() => {
            chain().extendMarkRange('link').unsetLink().run();
            setLinkOpen(false);
          }}
        />
      )}
    </>
  );
}

function ToolButton({
  label,
  pressed,
  disabled,
  onClick,
  children,
}: {
  label: string;
  pressed?: boolean;
  disabled?: boolean;
  onClick: () => void;
  children: ReactNode;
}) {
  return (
    <button
      type="button"
      className={styles.tool}
      aria-label={label}
      title={label}
      aria-pressed={pressed}
      disabled={disabled}
      // Keep the editor's selection: a mouse-down on the toolbar would otherwise take the focus.
      onMouseDown={(event) => event.preventDefault()}
      onClick={onClick}
    >
      {children}
    </button>
  );
}

function LinkForm({
  initialUrl,
  hasLink,
  onApply,
  onRemove,
}: {
  initialUrl: string;
  hasLink: boolean;
  onApply: (href: string) => void;
  onRemove: () => void;
}) {
  const { t } = useTranslation('notices');
  const [url, setUrl] = useState(initialUrl);
  const [invalid, setInvalid] = useState(false);
  const id = useId();

  // Not a <form>: the link row sits inside the register form, and forms cannot nest.
  function apply(event?: FormEvent) {
    event?.preventDefault();
    const href = url.trim();
    if (!LINK_PATTERN.test(href)) {
      setInvalid(true);
      return;
    }
    onApply(href);
  }

  return (
    <div className={styles.linkRow}>
      <label htmlFor={id} className={styles.linkLabel}>
        {t('editor.linkUrl')}
      </label>
      <input
        id={id}
        type="url"
        className={styles.linkInput}
        value={url}
        placeholder="https://"
        aria-invalid={invalid || undefined}
        aria-describedby={invalid ? `${id}-error` : undefined}
        // biome-ignore lint/a11y/noAutofocus: the user just asked for this field
        autoFocus
        onChange={(event) => {
          setUrl(event.target.value);
          setInvalid(false);
        }}
        onKeyDown={(event) => {
          if (event.key === 'Enter') apply(event);
        }}
      />
      <Button size="sm" onClick={() => apply()}>
        {t('editor.linkApply')}
      </Button>
      {hasLink && (
        <Button size="sm" variant="secondary" onClick={onRemove}>
          {t('editor.unlink')}
        </Button>
      )}
      {invalid && (
        <span id={`${id}-error`} className={styles.linkError}>
          {t('editor.linkInvalid')}
        </span>
      )}
    </div>
  );
}
