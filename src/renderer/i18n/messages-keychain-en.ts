/** English text of the key-protection line in settings (merged into EN_MESSAGES). */
export const KEYCHAIN_EN = {
  'set.keys.title': 'Saved keys',
  'set.keys.os-keychain': 'Encrypted with the system keychain.',
  'set.keys.basic-text':
    'No system keyring (GNOME Keyring or KWallet) was found: saved keys are encrypted with a fixed password, which is as good as plain text. Install or unlock a keyring and restart Aivory.',
  'set.keys.unavailable':
    'No system keychain is available, so keys cannot be saved here. Install or unlock a keyring (GNOME Keyring or KWallet) and restart Aivory.',
  'set.keys.file': 'Kept in the secrets file of the data directory, readable only by your user.',
} as const;
