import { Injectable, type OnModuleInit } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { checkPassword, hashPassword } from '../common';

/** Every password hash and check of identity (one place, so tests can count the argon2 work). */
@Injectable()
export class PasswordsService implements OnModuleInit {
  private dummy?: Promise<string>;

  onModuleInit() {
    this.dummy = hashPassword(randomBytes(24).toString('hex'));
  }

  hash(password: string): Promise<string> {
    return hashPassword(password);
  }

  verify(hash: string, password: string): Promise<boolean> {
    return checkPassword(hash, password);
  }

  /**
   * The same argon2 work against a hash no password matches: an unknown e-mail costs as much
   * time as a known one, so the answer's timing does not tell which addresses exist.
   */
  async verifyNone(password: string): Promise<false> {
    this.dummy ??= hashPassword(randomBytes(24).toString('hex'));
    await this.verify(await this.dummy, password);
    return false;
  }
}
