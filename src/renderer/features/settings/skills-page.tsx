/** 技能: the skills in effect (the user's and the built-in ones) — view, add, edit, remove. */
import type { ReactNode } from 'react';
import { useT } from '../../i18n/use-t';
import { useApp } from '../../state/store';
import { SkillEditor } from './skill-editor';
import { CrudList } from './crud-list';
import type { SkillDetail, SkillSummary } from '../../data/library';
import { deleteSkill, getSkill, listSkills, SKILLS_KEY } from '../../data/library';
import { useQuery } from '../../data/use-query';
import { skillLabel } from '../../state/tool-labels';

/** The skills page. */
export function SkillsPage(): ReactNode {
  const t = useT();
  const bridge = useApp((state) => state.bridge);
  const skills = useQuery(SKILLS_KEY, listSkills);
  return (
    <CrudList<SkillSummary, SkillDetail | null>
      testId="settings-page-skills"
      intro={t('set.skills.intro')}
      items={skills.data}
      itemKey={(skill) => skill.name}
      renderItem={(skill, row) => (
        <li data-testid="skill-item" data-name={skill.name}>
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
          <button
            type="button"
            className="button ghost"
            onClick={() =>
              row.run(async () => {
                if (bridge) row.edit(await getSkill(bridge, skill.name));
              })
            }
          >
            {t(skill.builtIn ? 'set.skills.view' : 'form.edit')}
          </button>
          {!skill.builtIn && (
            <button
              type="button"
              className="button ghost danger-text"
              onClick={() =>
                row.remove(skill.name, async () => {
                  if (bridge) await deleteSkill(bridge, skill.name);
                })
              }
            >
              {t('form.remove')}
            </button>
          )}
        </li>
      )}
      add={{ label: t('set.skills.new'), testId: 'skill-new', target: null }}
      renderEditor={(skill, done) => (
        <SkillEditor key={skill?.name ?? 'new'} skill={skill} onDone={done} />
      )}
    />
  );
}
