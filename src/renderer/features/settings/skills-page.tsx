/** 技能: the skills in effect (the user's and the built-in ones) — view, add, edit, remove. */
import type { ReactNode } from 'react';
import { useState } from 'react';
import type { InvokeResponse } from '../../../shared/ipc-contract';
import { useT } from '../../i18n/use-t';
import { useApp } from '../../state/store';
import { SkillEditor } from './skill-editor';
import { useLoaded } from './use-loaded';
import { askRemove } from '../../components/confirm-dialog';
import { skillLabel } from '../../state/tool-labels';

type SkillDetail = InvokeResponse<'skills.get'>;

/** The skills page. */
export function SkillsPage(): ReactNode {
  const t = useT();
  const bridge = useApp((state) => state.bridge);
  const showError = useApp((state) => state.showError);
  const skills = useLoaded((bridgeNow) => bridgeNow.invoke('skills.list'));
  const [editing, setEditing] = useState<SkillDetail | 'new' | null>(null);
  const open = async (name: string): Promise<void> => {
    try {
      const detail = await bridge?.invoke('skills.get', { name });
      if (detail) setEditing(detail);
    } catch (error) {
      showError(error);
    }
  };
  const remove = async (name: string): Promise<void> => {
    if (!(await askRemove(t, name))) return;
    try {
      await bridge?.invoke('skills.delete', { name });
      await skills.reload();
    } catch (error) {
      showError(error);
    }
  };
  const done = (): void => {
    setEditing(null);
    void skills.reload();
  };
  return (
    <div className="settings-page" data-testid="settings-page-skills">
      <p className="muted">{t('set.skills.intro')}</p>
      <ul className="settings-list">
        {skills.data?.map((skill) => (
          <li key={skill.name} data-testid="skill-item" data-name={skill.name}>
            <span>
              <strong data-testid="skill-label">
                {skill.icon} {skillLabel(skill, t).name}
              </strong>
              {skill.builtIn && <span className="badge">{t('set.skills.builtIn')}</span>}
              <br />
              <span className="muted" data-testid="skill-about">
                {skillLabel(skill, t).about}
              </span>
              {skill.assetCount > 0 && (
                <span className="muted">
                  {' '}
                  · {t('set.skills.assets', { count: skill.assetCount })}
                </span>
              )}
            </span>
            <button type="button" className="button ghost" onClick={() => void open(skill.name)}>
              {t(skill.builtIn ? 'set.skills.view' : 'form.edit')}
            </button>
            {!skill.builtIn && (
              <button
                type="button"
                className="button ghost danger-text"
                onClick={() => void remove(skill.name)}
              >
                {t('form.remove')}
              </button>
            )}
          </li>
        ))}
      </ul>
      {editing === null ? (
        <button
          type="button"
          className="button"
          data-testid="skill-new"
          onClick={() => setEditing('new')}
        >
          ＋ {t('set.skills.new')}
        </button>
      ) : (
        <SkillEditor
          key={editing === 'new' ? 'new' : editing.name}
          skill={editing === 'new' ? null : editing}
          onDone={done}
        />
      )}
    </div>
  );
}
