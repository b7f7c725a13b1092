/** The code sandbox's status line: external / local address, or "请先配置沙盒: why". */
import type { ReactNode } from 'react';
import { useT } from '../../i18n/use-t';
import { useQuery } from '../../data/use-query';
import { sandboxStatus, SANDBOX_STATUS_KEY } from '../../data/settings';

/** Where python_execute runs, or why it cannot (`data-state` for tests). */
export function SandboxStatusLine(): ReactNode {
  const t = useT();
  const status = useQuery(SANDBOX_STATUS_KEY, sandboxStatus);
  const data = status.data;
  const text =
    data === null
      ? t('set.sandbox.checking')
      : data.state === 'unavailable'
        ? (data.reason ?? '')
        : t(data.state === 'external' ? 'set.sandbox.external' : 'set.sandbox.local', {
            url: data.url ?? '',
          });
  return (
    <p
      className={`sandbox-status ${data?.state === 'unavailable' ? 'check-failed' : 'check-ok'}`}
      data-testid="sandbox-status"
      data-state={data?.state ?? 'checking'}
    >
      <strong>{t('set.sandbox.status')}</strong> {text}
    </p>
  );
}
