/**
 * How saved keys are protected (settings → general): the system keychain, or a warning when the
 * desktop app found none (Linux `basic_text`, or no encryption at all).
 */
import type { ReactNode } from 'react';
import { useT } from '../../i18n/use-t';
import { useQuery } from '../../data/use-query';
import { secretsStatus, SECRETS_STATUS_KEY } from '../../data/settings';

/** The key-protection line (`data-protection` for tests). */
export function SecretStorageLine(): ReactNode {
  const t = useT();
  const status = useQuery(SECRETS_STATUS_KEY, secretsStatus);
  const protection = status.data?.protection ?? null;
  const weak = protection === 'basic-text' || protection === 'unavailable';
  return (
    <section
      className="settings-block"
      data-testid="secret-storage"
      data-protection={protection ?? 'checking'}
    >
      <h3>{t('set.keys.title')}</h3>
      {protection !== null && (
        <p className={weak ? 'check-failed' : 'muted'}>{t(`set.keys.${protection}`)}</p>
      )}
    </section>
  );
}
