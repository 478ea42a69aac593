import { Inject, Injectable } from '@nestjs/common';
import { CONFIG } from '@digicard/server';
import type { Config } from '../config.js';
import { useHashOptions } from './passwords.js';

/** Applies the configured argon2id parameters (ARGON2_*) to every hash this service makes from its start. */
@Injectable()
export class PasswordHashing {
  constructor(@Inject(CONFIG) config: Config) {
    useHashOptions({ memoryCost: config.ARGON2_MEMORY_KIB, timeCost: config.ARGON2_TIME_COST, parallelism: config.ARGON2_PARALLELISM });
  }
}
