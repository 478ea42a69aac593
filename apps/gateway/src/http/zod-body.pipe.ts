import type { PipeTransform } from '@nestjs/common';
import { validationError } from '@digicard/contracts';
import { ApiHttpException } from '@digicard/server';
import type { z } from 'zod';

/** Validates a body at the edge with its contract schema: 400 with field errors, never further. */
export class ZodBody<S extends z.ZodType> implements PipeTransform<unknown, z.output<S>> {
  constructor(private readonly schema: S) {}

  transform(value: unknown): z.output<S> {
    const result = this.schema.safeParse(value);
    if (!result.success) throw new ApiHttpException(validationError(result.error));
    return result.data;
  }
}
