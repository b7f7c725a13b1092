/**
 * A discreet line under the composer's files when an image is attached and the chosen model does
 * not take images: it will read the file's description instead (`services/vision-input.ts`).
 */
import type { ReactNode } from 'react';
import { useT } from '../../i18n/use-t';
import type { PendingAttachment } from '../../state/attachment-rules';
import { useApp } from '../../state/store';
import { chosenModelVision, isRasterImageData } from '../../state/vision-rules';
import { listModels, MODELS_KEY } from '../../data/models';
import { useQuery } from '../../data/use-query';

/** Shown only when the model is known not to take images (`data-testid="composer-vision-hint"`). */
export function VisionHint(props: { files: readonly PendingAttachment[] }): ReactNode {
  const t = useT();
  const modelId = useApp((state) => state.modelId);
  const settingsOpen = useApp((state) => state.settingsOpen);
  const hasImage = props.files.some((file) => isRasterImageData(file.dataBase64));
  const models = useQuery(MODELS_KEY, listModels, {
    enabled: !settingsOpen && hasImage,
    reportErrors: false,
  });
  const vision = models.data === null ? null : chosenModelVision(models.data, modelId);
  if (!hasImage || vision !== false) return null;
  return (
    <p className="composer-vision-hint" data-testid="composer-vision-hint">
      {t('composer.visionHint')}
    </p>
  );
}
