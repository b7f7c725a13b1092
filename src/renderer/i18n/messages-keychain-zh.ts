/** 设置中“已保存的密钥”一行的简体中文文字（并入 ZH_MESSAGES）。 */
import type { KEYCHAIN_EN } from './messages-keychain-en';

/** Simplified Chinese text of the key-protection line. */
export const KEYCHAIN_ZH: Record<keyof typeof KEYCHAIN_EN, string> = {
  'set.keys.title': '已保存的密钥',
  'set.keys.os-keychain': '已由系统钥匙串加密。',
  'set.keys.basic-text':
    '未找到系统密钥环（GNOME Keyring 或 KWallet）：已保存的密钥仅用固定密码加密，几乎等同明文。请安装或解锁密钥环后重启 Aivory。',
  'set.keys.unavailable':
    '没有可用的系统钥匙串，因此无法在此保存密钥。请安装或解锁密钥环（GNOME Keyring 或 KWallet）后重启 Aivory。',
  'set.keys.file': '保存在数据目录的密钥文件中，仅你的用户可读。',
};
