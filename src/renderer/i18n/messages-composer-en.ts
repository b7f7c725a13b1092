/**
 * English text of the composer's limits: files refused as they are added, text too long for one
 * message, and the host's refusals of a request in words (merged into EN_MESSAGES).
 */
export const COMPOSER_EN = {
  'attach.tooMany': '{name} was not attached: one message can carry at most {max} files.',
  'attach.tooLarge':
    '{name} was not attached: it is {size}, and one file can have at most {max} MiB.',
  'attach.totalTooLarge':
    '{name} was not attached: the files of one message may total at most {max} MiB.',
  'attach.nameEmpty': 'A file without a name was not attached.',
  'attach.nameTooLong':
    '“{name}” was not attached: its name has {length} characters, and a file name can have at most {max}. Rename the file and attach it again.',
  'attach.nameInvalid':
    '“{name}” was not attached: a file name cannot contain /, \\ or control characters.',
  'attach.moreRefused': '{count} more files were not attached for the same kinds of reasons.',
  'attach.readFailed': 'A file could not be read.',

  'composer.noticeDismiss': 'Dismiss',
  'composer.paste.tooLong':
    'This paste is {size} ({chars} characters); a message can hold {max} characters. Attach it as a file instead?',
  'composer.paste.wouldOverflow':
    'With this text the message would have {total} characters; a message can hold {max}. Attach the new text as a file instead?',
  'composer.paste.tooLargeToAttach':
    'This text is {size} ({chars} characters): more than a message can hold ({max} characters) and more than one file can have ({maxFile} MiB).',
  'composer.paste.attach': 'Attach as a file',
  'composer.paste.insertPart': 'Insert the first {count} characters',
  'composer.count': '{count} / {max} characters',
  'composer.full': 'The message has reached {max} characters, the most one message can hold.',

  'request.textTooLong':
    'The message has more than {max} characters, the most one message can hold. Shorten it or attach the text as a file.',
  'request.attachmentName':
    'An attached file’s name was refused: a file name can have at most {max} characters and no /, \\ or control characters. Remove the file and attach it under another name.',
  'request.attachmentTooLarge':
    'An attached file is larger than {max} MiB, the most one file can have. Remove it and try again.',
  'request.attachmentTooMany':
    'One message can carry at most {max} files. Remove some and try again.',
  'request.attachmentsTotal':
    'The files of one message may total at most {max} MiB. Remove some and try again.',
  'request.invalid':
    'Aivory refused this request because some of its data was not valid. Reload the page and try again; if it keeps happening, please report it.',
} as const;
