/** 输入框限制相关的简体中文文字（并入 ZH_MESSAGES）。 */
import type { COMPOSER_EN } from './messages-composer-en';

/** Simplified Chinese text of the composer's limits. */
export const COMPOSER_ZH: Record<keyof typeof COMPOSER_EN, string> = {
  'attach.tooMany': '未添加 {name}：一条消息最多只能带 {max} 个文件。',
  'attach.tooLarge': '未添加 {name}：它有 {size}，单个文件最大 {max} MiB。',
  'attach.totalTooLarge': '未添加 {name}：一条消息的文件合计不能超过 {max} MiB。',
  'attach.nameEmpty': '有一个没有名字的文件，未添加。',
  'attach.nameTooLong':
    '未添加“{name}”：它的文件名有 {length} 个字符，文件名最多 {max} 个字符。请重命名后再添加。',
  'attach.nameInvalid': '未添加“{name}”：文件名不能包含 /、\\ 或控制字符。',
  'attach.moreRefused': '另有 {count} 个文件因同类原因未添加。',
  'attach.readFailed': '有文件无法读取。',

  'composer.noticeDismiss': '关闭',
  'composer.paste.tooLong':
    '粘贴的内容有 {size}（{chars} 个字符），而一条消息最多 {max} 个字符。改为作为文件添加？',
  'composer.paste.wouldOverflow':
    '加上这段文字，消息将有 {total} 个字符，而一条消息最多 {max} 个字符。把新文字改为作为文件添加？',
  'composer.paste.tooLargeToAttach':
    '这段文字有 {size}（{chars} 个字符）：超过一条消息的上限（{max} 个字符），也超过单个文件的上限（{maxFile} MiB）。',
  'composer.paste.attach': '作为文件添加',
  'composer.paste.insertPart': '只插入前 {count} 个字符',
  'composer.count': '{count} / {max} 个字符',
  'composer.full': '消息已达到 {max} 个字符，这是一条消息的上限。',

  'request.textTooLong': '消息超过了 {max} 个字符的上限。请缩短，或把文字作为文件添加。',
  'request.attachmentName':
    '附件的文件名不被接受：文件名最多 {max} 个字符，且不能包含 /、\\ 或控制字符。请移除该文件，改名后再添加。',
  'request.attachmentTooLarge': '有附件超过了单个文件 {max} MiB 的上限。请移除后重试。',
  'request.attachmentTooMany': '一条消息最多只能带 {max} 个文件。请移除一些后重试。',
  'request.attachmentsTotal': '一条消息的文件合计不能超过 {max} MiB。请移除一些后重试。',
  'request.invalid':
    'Aivory 拒绝了这个请求：其中有数据无效。请刷新页面后重试；如果反复出现，请报告这个问题。',
};
