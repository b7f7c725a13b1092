/**
 * Text, Markdown, JSON and code: Markdown through the answers' own renderer (`components/
 * markdown`: sanitised, no remote images without a click), JSON pretty-printed, code and JSON
 * highlighted by the answers' code block. Past HIGHLIGHT_LIMIT_CHARS the text shows plain: the
 * highlighter runs on the main thread.
 */
import type { ReactNode } from 'react';
import { useMemo } from 'react';
import { formatBytes } from '../../../shared/byte-size';
import { CodeBlock } from '../../components/code-block';
import { Markdown } from '../../components/markdown';
import { useT } from '../../i18n/use-t';
import { useApp } from '../../state/store';
import type { ViewedFile } from './artifact-state';
import { codeLanguage, HIGHLIGHT_LIMIT_CHARS, VIEWER_LIMITS } from './artifact-kind';
import { ViewerNote, ReadProblem } from './viewer-notes';
import { useFileText } from './read-file';

/** One text-like file. */
export function TextViewer(props: {
  file: ViewedFile;
  kind: 'markdown' | 'json' | 'code' | 'text';
}): ReactNode {
  const bridge = useApp((state) => state.bridge);
  const read = useFileText(bridge, props.file.path, VIEWER_LIMITS[props.kind]);
  if (read.state !== 'ready')
    return <ReadProblem read={read} file={props.file} kind={props.kind} />;
  if (props.kind === 'markdown') {
    return (
      <div className="artifact-markdown" data-testid="artifact-markdown">
        <Markdown text={read.text} />
      </div>
    );
  }
  return <SourceText text={read.text} kind={props.kind} name={props.file.name} />;
}

/** Text in a code block: highlighted when short enough, JSON pretty-printed first. */
export function SourceText(props: {
  text: string;
  kind: 'json' | 'code' | 'text' | 'html' | 'svg';
  name: string;
}): ReactNode {
  const t = useT();
  const { text, invalid } = useMemo(
    () => prettyJson(props.text, props.kind),
    [props.text, props.kind],
  );
  const language =
    props.kind === 'json'
      ? 'json'
      : props.kind === 'html' || props.kind === 'svg'
        ? 'xml'
        : props.kind === 'code'
          ? codeLanguage(props.name)
          : '';
  const plain = text.length > HIGHLIGHT_LIMIT_CHARS;
  return (
    <div className="artifact-source" data-testid="artifact-source">
      {invalid && <ViewerNote>{t('artifact.jsonInvalid')}</ViewerNote>}
      {plain && (
        <ViewerNote>
          {t('artifact.plainText', { limit: formatBytes(HIGHLIGHT_LIMIT_CHARS) })}
        </ViewerNote>
      )}
      <CodeBlock language={plain ? '' : language} text={text} copyTestId="artifact-copy" />
    </div>
  );
}

/** JSON indented by two spaces; other text as it is. */
function prettyJson(text: string, kind: string): { text: string; invalid: boolean } {
  if (kind !== 'json') return { text, invalid: false };
  try {
    return { text: JSON.stringify(JSON.parse(text), null, 2), invalid: false };
  } catch {
    return { text, invalid: true };
  }
}
