import { Module } from '@nestjs/common';
import { EnquiriesController } from './enquiries.controller.js';
import { EnquiriesRepository } from './enquiries.repository.js';
import { ForgetDeletedAccountEnquiries } from './account-deleted.handler.js';
import { SubmitEnquiry } from './use-cases/submit-enquiry.use-case.js';

@Module({ controllers: [EnquiriesController], providers: [EnquiriesRepository, SubmitEnquiry, ForgetDeletedAccountEnquiries] })
export class EnquiriesModule {}
