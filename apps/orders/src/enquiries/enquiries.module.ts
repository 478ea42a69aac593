import { Module } from '@nestjs/common';
import { EnquiriesController } from './enquiries.controller.js';
import { EnquiriesRepository } from './enquiries.repository.js';
import { EnquiriesService } from './enquiries.service.js';

@Module({
  controllers: [EnquiriesController],
  providers: [EnquiriesService, EnquiriesRepository],
})
export class EnquiriesModule {}
