import { Injectable } from '@nestjs/common';
import type { Plan } from '@digicard/contracts';
import { Plans } from '../plans.js';

@Injectable()
export class ListPlans {
  execute(): { plans: Plan[] } {
    return { plans: [...Plans] };
  }
}
