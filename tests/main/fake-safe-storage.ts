import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import type { SafeStorageLike } from '../../src/main/key-vault';

/**
 * A stand-in for Electron's safeStorage that really encrypts (AES-256-GCM under a key of its own,
 * as the system keychain would hold), so a test can check what reaches the disk. `secret` plays the
 * keychain: another secret is another machine, or a keychain that changed.
 */
export function fakeSafeStorage(
  options: { available?: boolean; backend?: string; secret?: Buffer } = {},
): SafeStorageLike & { calls: string[] } {
  const secret = options.secret ?? randomBytes(32);
  const calls: string[] = [];
  return {
    calls,
    isEncryptionAvailable: () => options.available ?? true,
    getSelectedStorageBackend: () => options.backend ?? 'gnome_libsecret',
    encryptString(plainText) {
      calls.push('encrypt');
      if (options.available === false) throw new Error('Encryption is not available.');
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', secret, iv);
      const body = Buffer.concat([cipher.update(plainText, 'utf8'), cipher.final()]);
      return Buffer.concat([iv, cipher.getAuthTag(), body]);
    },
    decryptString(encrypted) {
      calls.push('decrypt');
      const decipher = createDecipheriv('aes-256-gcm', secret, encrypted.subarray(0, 12));
      decipher.setAuthTag(encrypted.subarray(12, 28));
      return Buffer.concat([decipher.update(encrypted.subarray(28)), decipher.final()]).toString('utf8');
    },
  };
}
