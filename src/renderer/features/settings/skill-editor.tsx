/**
 * A skill's editor: name, icon, "when to use", the Markdown instructions and optional assets.
 * Built-in skills are shown read-only (a user skill of the same name overrides them).
 */
import type { ReactNode } from 'react';
import { useState } from 'react';
import { MAX_ASSET_UPLOAD_BYTES } from '../../../shared/ipc/limits';
import { useT } from '../../i18n/use-t';
import { useApp } from '../../state/store';
import { fileToBase64 } from './file-base64';
import type { FieldErrors, SaveState } from './form-controls';
import { Field, FieldErrorText, SaveRow } from './form-controls';
import { checkRequired, errorMessage, fieldOfError } from './form-rules';
import { useFormErrors } from './use-form-errors';
import type { SkillDetail } from '../../data/library';
import { createSkill, deleteSkillAsset, putSkillAsset, updateSkill } from '../../data/library';

type AssetPayload = { name: string; mime: string; dataBase64: string };

const FIELD_ALIASES = {
  name: ['skill name'],
  icon: [],
  whenToUse: ['when to use'],
  instructions: [],
  assets: ['asset'],
};

/** Edits `skill`, or creates one when it is null. */
export function SkillEditor(props: { skill: SkillDetail | null; onDone(): void }): ReactNode {
  const t = useT();
  const bridge = useApp((state) => state.bridge);
  const [saved, setSaved] = useState(props.skill);
  const [name, setName] = useState(saved?.name ?? '');
  const [icon, setIcon] = useState(saved?.icon ?? '');
  const [whenToUse, setWhenToUse] = useState(saved?.whenToUse ?? '');
  const [instructions, setInstructions] = useState(saved?.instructions ?? '');
  const [pending, setPending] = useState<AssetPayload[]>([]);
  const { errors, setErrors, edited } = useFormErrors();
  const [state, setState] = useState<SaveState>('idle');
  const readOnly = saved?.builtIn === true;

  const fail = (error: unknown, problems: FieldErrors = {}): void => {
    const message = errorMessage(error);
    const field = fieldOfError(message, FIELD_ALIASES);
    if (field === null) setState({ failed: message });
    else {
      setErrors({ ...problems, [field]: message });
      setState('idle');
    }
  };
  const save = async (): Promise<void> => {
    const problems: FieldErrors = {
      name: checkRequired(name),
      whenToUse: checkRequired(whenToUse),
      instructions: checkRequired(instructions),
    };
    setErrors(problems);
    if (Object.values(problems).some(Boolean) || !bridge) return;
    setState('saving');
    try {
      if (saved) {
        await updateSkill(bridge, {
          name: saved.name,
          changes: { ...(name !== saved.name ? { name } : {}), icon, whenToUse, instructions },
        });
      } else {
        await createSkill(bridge, {
          name,
          icon,
          whenToUse,
          instructions,
          assets: pending,
        });
      }
      setState('saved');
      props.onDone();
    } catch (error) {
      fail(error, problems);
    }
  };
  const addFile = async (file: File | undefined): Promise<void> => {
    if (!file || !bridge) return;
    if (file.size > MAX_ASSET_UPLOAD_BYTES) {
      const max = (MAX_ASSET_UPLOAD_BYTES / 1_000_000).toFixed(1);
      setErrors({
        ...errors,
        assets: { key: 'set.skills.assetTooLarge', params: { name: file.name, max } },
      });
      return;
    }
    const asset = {
      name: file.name,
      mime: file.type || 'application/octet-stream',
      dataBase64: await fileToBase64(file),
    };
    setErrors({ ...errors, assets: null });
    if (!saved) {
      setPending([...pending.filter((item) => item.name !== asset.name), asset]);
      return;
    }
    try {
      setSaved(await putSkillAsset(bridge, { skill: saved.name, asset }));
    } catch (error) {
      fail(error);
    }
  };
  const removeAsset = async (asset: string): Promise<void> => {
    if (!saved) {
      setPending(pending.filter((item) => item.name !== asset));
      return;
    }
    if (!bridge) return;
    try {
      setSaved(await deleteSkillAsset(bridge, { skill: saved.name, asset }));
    } catch (error) {
      fail(error);
    }
  };
  const assets = saved
    ? saved.assets.map((asset) => asset.name)
    : pending.map((asset) => asset.name);

  return (
    <div className="editor" data-testid="skill-editor">
      {readOnly && <p className="muted">{t('set.skills.readOnly')}</p>}
      {saved?.overridesBuiltIn && <p className="muted">{t('set.skills.overrides')}</p>}
      {saved?.secretWarning && <p className="check-failed">{saved.secretWarning}</p>}
      <Field label="set.skills.name" testId="skill-name" error={errors.name}>
        <input
          data-testid="skill-name"
          readOnly={readOnly}
          value={name}
          onChange={(e) => edited('name', setName)(e.target.value)}
        />
      </Field>
      <Field label="set.skills.icon" testId="skill-icon" error={errors.icon}>
        <input
          data-testid="skill-icon"
          readOnly={readOnly}
          value={icon}
          onChange={(e) => edited('icon', setIcon)(e.target.value)}
        />
      </Field>
      <Field label="set.skills.whenToUse" testId="skill-when" error={errors.whenToUse}>
        <input
          data-testid="skill-when"
          readOnly={readOnly}
          value={whenToUse}
          onChange={(e) => edited('whenToUse', setWhenToUse)(e.target.value)}
        />
      </Field>
      <Field
        label="set.skills.instructions"
        testId="skill-instructions"
        error={errors.instructions}
      >
        <textarea
          data-testid="skill-instructions"
          rows={10}
          readOnly={readOnly}
          value={instructions}
          onChange={(e) => edited('instructions', setInstructions)(e.target.value)}
        />
      </Field>
      {!readOnly && (
        <fieldset className="defaults-picker">
          <legend>{t('set.skills.assetsTitle')}</legend>
          <ul className="settings-list">
            {assets.map((asset) => (
              <li key={asset} data-testid="skill-asset">
                <span>{asset}</span>
                <button
                  type="button"
                  className="button ghost danger-text"
                  onClick={() => void removeAsset(asset)}
                >
                  {t('form.remove')}
                </button>
              </li>
            ))}
          </ul>
          <label className="button">
            {t('set.skills.addAsset')}
            <input
              type="file"
              hidden
              data-testid="skill-asset-file"
              onChange={(event) => {
                void addFile(event.target.files?.[0]);
                event.target.value = '';
              }}
            />
          </label>
          <FieldErrorText error={errors.assets} testId="skill-assets-error" />
        </fieldset>
      )}
      {readOnly ? (
        <button type="button" className="button" onClick={props.onDone}>
          {t('settings.close')}
        </button>
      ) : (
        <SaveRow state={state} testId="skill-save" onSave={() => void save()}>
          <button type="button" className="button ghost" onClick={props.onDone}>
            {t('form.cancel')}
          </button>
        </SaveRow>
      )}
    </div>
  );
}
