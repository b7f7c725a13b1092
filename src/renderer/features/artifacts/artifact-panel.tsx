/**
 * The artifact viewer: a panel beside the chat (a resizable column in a wide window, the whole
 * window in a narrow one) showing one file of the open conversation — a tool's artifact or an
 * attachment — opened from its chip or image. Esc closes it (and gives focus back to what opened
 * it); `[` / `]` or the arrows in its header step through the conversation's files. It is an
 * `aside`, not a dialog: the chat's own shortcuts keep working beside it.
 */
import type { KeyboardEvent as ReactKeyboardEvent, PointerEvent, ReactNode } from 'react';
import { useEffect, useLayoutEffect, useMemo, useRef } from 'react';
import { stripInvisibleCharacters } from '../../../shared/untrusted-text';
import { openableKindByName } from '../../../shared/openable-files';
import { CloseIcon, ExportIcon, NextIcon, PreviousIcon } from '../../components/icons';
import { useT } from '../../i18n/use-t';
import { useApp } from '../../state/store';
import type { ViewedFile } from './artifact-state';
import {
  closeArtifact,
  conversationFiles,
  MIN_PANEL_WIDTH,
  openArtifact,
  setArtifactWidth,
  stepFile,
  useArtifactView,
} from './artifact-state';
import { tooLargeToView, viewerKind } from './artifact-kind';
import { CsvViewer } from './csv-viewer';
import { DocxViewer } from './docx-viewer';
import { HtmlViewer } from './html-viewer';
import { ImageViewer } from './image-viewer';
import { PdfViewer } from './pdf-viewer';
import { PptxViewer } from './pptx-viewer';
import { TextViewer } from './text-viewer';
import { markOpening } from './opening-marker';
import { TooLarge } from './viewer-notes';
import { openFile } from '../../data/files';

/** Pixels an arrow key on the resize handle moves the edge. */
const RESIZE_STEP = 32;
/** The chat keeps at least this much beside the panel (px). */
const MIN_CHAT_WIDTH = 360;

/** The panel, when a file is open. */
export function ArtifactPanel(): ReactNode {
  const t = useT();
  const { file } = useArtifactView();
  const messages = useApp((state) => state.messages);
  const files = useMemo(() => conversationFiles(messages), [messages]);
  const panel = useRef<HTMLElement>(null);
  const opener = useRef<HTMLElement | null>(null);
  const open = file !== null;

  // Focus moves into the panel when it opens and back to what opened it when it closes.
  useEffect(() => {
    if (!open) return undefined;
    opener.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    panel.current?.focus();
    return () => {
      if (opener.current?.isConnected) opener.current.focus();
    };
  }, [open]);

  useEffect(() => {
    if (file === null) return undefined;
    const onKeyDown = (event: KeyboardEvent): void => {
      if (event.defaultPrevented || event.isComposing) return;
      if (event.altKey || event.ctrlKey || event.metaKey) return;
      // A dialog or menu (the lightbox too) takes its own keys.
      if (document.querySelector('[role="dialog"], [role="menu"]') !== null) return;
      if (event.key === 'Escape') {
        // Handled here, before the window's shortcuts: Esc closes the viewer, not the turn.
        event.preventDefault();
        closeArtifact();
        return;
      }
      if (typing(document.activeElement)) return;
      const step = event.key === '[' ? -1 : event.key === ']' ? 1 : 0;
      if (step === 0) return;
      const next = stepFile(files, file, step);
      if (next === null) return;
      event.preventDefault();
      openArtifact(next);
    };
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, [file, files]);

  if (file === null) return null;
  const index = files.findIndex((entry) => entry.path === file.path);
  const name = stripInvisibleCharacters(file.name);
  return (
    <aside
      ref={panel}
      className="artifact-panel"
      data-testid="artifact-panel"
      data-kind={viewerKind(file.name) ?? 'none'}
      aria-label={t('artifact.panel', { name })}
      tabIndex={-1}
    >
      <ResizeHandle />
      <header className="artifact-header">
        <h2 className="artifact-title" title={name} data-testid="artifact-title">
          {name}
        </h2>
        {files.length > 1 && index >= 0 && (
          <>
            <span className="artifact-position muted" data-testid="artifact-position">
              {t('artifact.position', { index: index + 1, count: files.length })}
            </span>
            <StepButton files={files} file={file} step={-1} />
            <StepButton files={files} file={file} step={1} />
          </>
        )}
        <FileButtons file={file} />
        <button
          type="button"
          className="icon-button"
          aria-label={t('artifact.close')}
          title={t('artifact.close')}
          data-testid="artifact-close"
          onClick={closeArtifact}
        >
          <CloseIcon size={18} />
        </button>
      </header>
      <div className="artifact-body" data-testid="artifact-body">
        <Viewer key={file.path} file={file} />
      </div>
    </aside>
  );
}

/** The viewer for the file's kind, or why there is none. */
function Viewer(props: { file: ViewedFile }): ReactNode {
  const t = useT();
  const kind = viewerKind(props.file.name);
  const reads = kind !== null && kind !== 'image' && !tooLargeToView(kind, props.file.size);
  // Marked before its read starts (the effects below this run first), cleared when the read ends:
  // a page that dies meanwhile names the file when it loads again (`opening-marker.ts`).
  useLayoutEffect(() => {
    if (reads) markOpening(props.file);
  }, [reads, props.file]);
  if (kind === null) {
    return (
      <p className="artifact-message" data-testid="artifact-no-preview">
        {t('artifact.noPreview')}
      </p>
    );
  }
  if (tooLargeToView(kind, props.file.size)) return <TooLarge file={props.file} kind={kind} />;
  switch (kind) {
    case 'markdown':
    case 'json':
    case 'code':
    case 'text':
      return <TextViewer file={props.file} kind={kind} />;
    case 'image':
      return <ImageViewer file={props.file} />;
    case 'csv':
    case 'xlsx':
      return <CsvViewer file={props.file} />;
    case 'pdf':
      return <PdfViewer file={props.file} />;
    case 'docx':
      return <DocxViewer file={props.file} />;
    case 'pptx':
      return <PptxViewer file={props.file} />;
    case 'html':
    case 'svg':
      return <HtmlViewer file={props.file} kind={kind} />;
  }
}

function StepButton(props: {
  files: readonly ViewedFile[];
  file: ViewedFile;
  step: 1 | -1;
}): ReactNode {
  const t = useT();
  const label = props.step === 1 ? t('artifact.next') : t('artifact.previous');
  return (
    <button
      type="button"
      className="icon-button"
      aria-label={label}
      title={label}
      data-testid={props.step === 1 ? 'artifact-next' : 'artifact-previous'}
      onClick={() => {
        const next = stepFile(props.files, props.file, props.step);
        if (next !== null) openArtifact(next);
      }}
    >
      {props.step === 1 ? <NextIcon size={18} /> : <PreviousIcon size={18} />}
    </button>
  );
}

/** Download in the browser; open with the system's app on the desktop (checked by the host). */
function FileButtons(props: { file: ViewedFile }): ReactNode {
  const t = useT();
  const bridge = useApp((state) => state.bridge);
  const showError = useApp((state) => state.showError);
  if (bridge === null) return null;
  if (bridge.host === 'browser') {
    return (
      <a
        className="icon-button"
        href={bridge.fileUrl(props.file.path, true)}
        download={props.file.name}
        aria-label={t('artifact.download')}
        title={t('artifact.download')}
        data-testid="artifact-download"
      >
        <ExportIcon size={18} />
      </a>
    );
  }
  if (openableKindByName(props.file.name) === null) return null;
  return (
    <button
      type="button"
      className="file-action"
      data-testid="artifact-open"
      onClick={() => void openFile(bridge, props.file.path).catch(showError)}
    >
      {t('artifact.open')}
    </button>
  );
}

/**
 * The panel's left edge: drag it, or focus it and press ← / →. The width is kept on release; the
 * chat keeps MIN_CHAT_WIDTH.
 */
function ResizeHandle(): ReactNode {
  const t = useT();
  const { width } = useArtifactView();
  const widest = (): number => {
    const layout = document.querySelector<HTMLElement>('.layout');
    const chat = document.querySelector<HTMLElement>('.chat');
    const chatLeft = chat?.getBoundingClientRect().left ?? 0;
    const right = layout?.getBoundingClientRect().right ?? window.innerWidth;
    return Math.max(MIN_PANEL_WIDTH, right - chatLeft - MIN_CHAT_WIDTH);
  };
  const onPointerDown = (event: PointerEvent<HTMLDivElement>): void => {
    if (event.button !== 0) return;
    event.preventDefault();
    const handle = event.currentTarget;
    handle.setPointerCapture(event.pointerId);
    const right =
      document.querySelector('.layout')?.getBoundingClientRect().right ?? window.innerWidth;
    const limit = widest();
    const move = (moved: globalThis.PointerEvent): void =>
      setArtifactWidth(Math.min(limit, right - moved.clientX), false);
    const up = (ended: globalThis.PointerEvent): void => {
      handle.removeEventListener('pointermove', move);
      handle.removeEventListener('pointerup', up);
      handle.removeEventListener('pointercancel', up);
      setArtifactWidth(Math.min(limit, right - ended.clientX), true);
    };
    handle.addEventListener('pointermove', move);
    handle.addEventListener('pointerup', up);
    handle.addEventListener('pointercancel', up);
  };
  const onKeyDown = (event: ReactKeyboardEvent<HTMLDivElement>): void => {
    const step =
      event.key === 'ArrowLeft' ? RESIZE_STEP : event.key === 'ArrowRight' ? -RESIZE_STEP : 0;
    if (step === 0) return;
    event.preventDefault();
    setArtifactWidth(Math.min(widest(), width + step), true);
  };
  return (
    <div
      className="artifact-resize"
      role="separator"
      aria-orientation="vertical"
      aria-label={t('artifact.resize')}
      title={t('artifact.resize')}
      aria-valuenow={width}
      aria-valuemin={MIN_PANEL_WIDTH}
      tabIndex={0}
      data-testid="artifact-resize"
      onPointerDown={onPointerDown}
      onKeyDown={onKeyDown}
    />
  );
}

/** True while focus is in a text field (`[` and `]` are typed there, not shortcuts). */
function typing(element: Element | null): boolean {
  if (element instanceof HTMLTextAreaElement || element instanceof HTMLSelectElement) return true;
  if (element instanceof HTMLInputElement)
    return !['checkbox', 'radio', 'button'].includes(element.type);
  return element instanceof HTMLElement && element.isContentEditable;
}
