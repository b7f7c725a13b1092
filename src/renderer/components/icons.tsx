/**
 * The app's icons: lucide (https://lucide.dev, ISC), imported one by one so the bundle carries
 * only these; every other file takes its icons from here. Icons are decoration (`aria-hidden`):
 * an icon-only button names itself with `aria-label` and shows the same text as its tooltip.
 */
import type { LucideIcon } from 'lucide-react';
import {
  Brain,
  Cpu,
  Database,
  PanelLeftClose,
  PanelLeftOpen,
  ScrollText,
  Settings2,
  Sparkles,
} from 'lucide-react';
import {
  Check,
  Columns2,
  ChevronDown,
  ChevronLeft,
  ChevronRight,
  Copy,
  Download,
  Ellipsis,
  Expand,
  Eye,
  File as FileGeneric,
  FileArchive,
  FileCode,
  FileImage,
  FileMusic,
  FilePlay,
  FileSpreadsheet,
  FileText,
  FolderOpen,
  MessageSquareText,
  Paperclip,
  Pencil,
  Pin,
  PinOff,
  Plug,
  Plus,
  RefreshCw,
  RotateCcw,
  Settings,
  SlidersHorizontal,
  SquarePen,
  Trash2,
  TriangleAlert,
  Wrench,
  X,
  ZoomIn,
  ZoomOut,
} from 'lucide-react';
import type { ReactNode } from 'react';

/** How an icon is drawn: 16 px in the text colour unless told otherwise. */
export interface IconProps {
  size?: number;
  className?: string;
}

function icon(Drawn: LucideIcon): (props: IconProps) => ReactNode {
  function AppIcon(props: IconProps): ReactNode {
    return (
      <Drawn
        className={props.className ? `icon ${props.className}` : 'icon'}
        size={props.size ?? 16}
        strokeWidth={2}
        aria-hidden="true"
        focusable="false"
      />
    );
  }
  return AppIcon;
}

export const PaperclipIcon = icon(Paperclip);
export const PromptsIcon = icon(MessageSquareText);
export const McpIcon = icon(Plug);
export const ToolsIcon = icon(Wrench);
export const CopyIcon = icon(Copy);
export const CopyTextIcon = icon(FileText);
export const CheckIcon = icon(Check);
export const FailedIcon = icon(TriangleAlert);
export const DeleteIcon = icon(Trash2);
export const RetryIcon = icon(RotateCcw);
export const MoreIcon = icon(Ellipsis);
export const PinIcon = icon(Pin);
export const UnpinIcon = icon(PinOff);
export const RenameIcon = icon(Pencil);
export const ExportIcon = icon(Download);
export const SettingsIcon = icon(Settings);
export const ChatSettingsIcon = icon(SlidersHorizontal);
export const ZoomInIcon = icon(ZoomIn);
export const ZoomOutIcon = icon(ZoomOut);
export const FitIcon = icon(Expand);
export const CloseIcon = icon(X);
export const FolderIcon = icon(FolderOpen);
export const NewChatIcon = icon(Plus);
export const ChevronDownIcon = icon(ChevronDown);
export const VisionIcon = icon(Eye);
export const StarterIcon = icon(Sparkles);
export const RegenerateIcon = icon(RefreshCw);
export const CompareIcon = icon(Columns2);
export const EditIcon = icon(SquarePen);
export const PreviousIcon = icon(ChevronLeft);
export const NextIcon = icon(ChevronRight);
export const SidebarOpenIcon = icon(PanelLeftOpen);
export const SidebarCloseIcon = icon(PanelLeftClose);
export const GeneralIcon = icon(Settings2);
export const ModelsIcon = icon(Cpu);
export const SkillsIcon = icon(Sparkles);
export const PromptTemplatesIcon = icon(ScrollText);
export const MemoryIcon = icon(Brain);
export const DataIcon = icon(Database);

/** A file by its kind (`state/file-kind.ts`): the composer's chips for non-image files. */
export const FileKindIcons = {
  text: icon(FileText),
  code: icon(FileCode),
  sheet: icon(FileSpreadsheet),
  archive: icon(FileArchive),
  image: icon(FileImage),
  audio: icon(FileMusic),
  video: icon(FilePlay),
  other: icon(FileGeneric),
} as const;
