import { z } from 'zod';
import {
  DeleteAccountSchema,
  LoginRequestSchema,
  PasswordResetRequestSchema,
  PasswordResetSchema,
  RegisterRequestSchema,
  SessionUserSchema,
  VerifyEmailSchema,
} from './accounts.js';
import { CatalogueItemRefSchema, CatalogueItemSchema, CatalogueListSchema } from './catalogue.js';
import { EnquiryAcceptedSchema, SubmitEnquiryRequestSchema } from './enquiries.js';
import {
  ImagePurposeSchema,
  LeadListSchema,
  LeadSubmissionSchema,
  OwnProfileSchema,
  ProfileDocumentSchema,
  ProfileSettingsSchema,
  PublicProfileSchema,
  StoredImageSchema,
  ViewSourceSchema,
} from './profiles.js';
import { HealthReportSchema } from './health.js';
import type { ServiceName } from './services.js';

/** Who is asking: set by the gateway from its session, never taken from the browser. */
export const RequestMetaSchema = z.object({
  requestId: z.string(),
  userId: z.string().nullable(),
  role: z.string().nullable(),
  ip: z.string().nullable(),
});
export type RequestMeta = z.infer<typeof RequestMetaSchema>;

export interface RpcDefinition<Req extends z.ZodType, Res extends z.ZodType> {
  /** `<service>.<entity>.<verb>` */
  readonly subject: string;
  readonly owner: ServiceName;
  readonly request: Req;
  readonly response: Res;
}

function rpc<Req extends z.ZodType, Res extends z.ZodType>(
  owner: ServiceName,
  subject: string,
  request: Req,
  response: Res,
): RpcDefinition<Req, Res> {
  if (!subject.startsWith(`${owner}.`)) throw new Error(`RPC subject ${subject} must start with its owner ${owner}`);
  return { subject, owner, request, response };
}

/** Every request/reply subject, declared once. The envelope sent over NATS is `{ meta, body }`. */
const AccountRef = z.object({ accountId: z.uuid() });
/** A freshly issued single-use token, for the email that carries it. Request/reply only: never in an event or a log. */
const IssuedToken = z.object({
  token: z.string(),
  email: z.string(),
  firstName: z.string(),
  expiresAt: z.iso.datetime(),
});

export const Rpc = {
  submitEnquiry: rpc('orders', 'orders.enquiry.submit', SubmitEnquiryRequestSchema, EnquiryAcceptedSchema),
  listCatalogue: rpc('orders', 'orders.catalogue.list', z.object({}), CatalogueListSchema),
  getCatalogueItem: rpc('orders', 'orders.catalogue.get', CatalogueItemRefSchema, CatalogueItemSchema),

  register: rpc('identity', 'identity.account.register', RegisterRequestSchema, SessionUserSchema),
  authenticate: rpc('identity', 'identity.account.authenticate', LoginRequestSchema, SessionUserSchema),
  getAccount: rpc('identity', 'identity.account.get', AccountRef, SessionUserSchema),
  verifyEmail: rpc('identity', 'identity.email.verify', VerifyEmailSchema, SessionUserSchema),
  requestVerification: rpc('identity', 'identity.verification.request', AccountRef, z.object({ requested: z.boolean() })),
  issueVerificationToken: rpc('identity', 'identity.verification.issue', AccountRef, IssuedToken.nullable()),
  requestPasswordReset: rpc('identity', 'identity.password-reset.request', PasswordResetRequestSchema, z.object({ requested: z.boolean() })),
  issuePasswordResetToken: rpc('identity', 'identity.password-reset.issue', AccountRef, IssuedToken.nullable()),
  resetPassword: rpc('identity', 'identity.password.reset', PasswordResetSchema, SessionUserSchema),
  deleteAccount: rpc('identity', 'identity.account.delete', AccountRef.extend(DeleteAccountSchema.shape), z.object({ deleted: z.literal(true) })),

  getOwnProfile: rpc('profiles', 'profiles.profile.get', AccountRef, OwnProfileSchema),
  saveProfile: rpc('profiles', 'profiles.profile.save', AccountRef.extend({ document: ProfileDocumentSchema }), OwnProfileSchema),
  saveSettings: rpc('profiles', 'profiles.settings.save', AccountRef.extend(ProfileSettingsSchema.shape), OwnProfileSchema),
  storeImage: rpc(
    'profiles',
    'profiles.image.store',
    AccountRef.extend({
      purpose: ImagePurposeSchema,
      contentType: z.enum(['image/webp', 'image/png', 'image/jpeg']),
      dataBase64: z.string().max(1_000_000),
      width: z.number().int().positive(),
      height: z.number().int().positive(),
    }),
    StoredImageSchema,
  ),
  getMedia: rpc('profiles', 'profiles.media.get', z.object({ id: z.string().regex(/^[A-Za-z0-9_-]{10,64}$/) }), z.object({ contentType: z.string(), dataBase64: z.string() })),
  getPublicProfile: rpc(
    'profiles',
    'profiles.profile.public',
    z.object({ username: z.string().max(64), viewerId: z.uuid().nullable(), source: ViewSourceSchema.nullable() }),
    z.object({ profile: PublicProfileSchema, isOwner: z.boolean(), shareable: z.boolean() }),
  ),
  resolvePath: rpc('profiles', 'profiles.path.resolve', z.object({ path: z.string().max(200) }), z.object({ username: z.string() })),
  submitLead: rpc('profiles', 'profiles.lead.submit', z.object({ username: z.string().max(64), submission: LeadSubmissionSchema }), z.object({ id: z.uuid() })),
  listLeads: rpc('profiles', 'profiles.lead.list', AccountRef, LeadListSchema),
  exportData: rpc('profiles', 'profiles.data.export', AccountRef, z.record(z.string(), z.unknown())),
} as const;

export const rpcEnvelope = <T extends z.ZodType>(body: T) => z.object({ meta: RequestMetaSchema, body });

/**
 * Fire-and-forget notices over core NATS: nobody waits for them and losing one now and then is fine (page-view
 * counts). Anything that must not be lost is an event through an outbox instead.
 */
export const Notices = {
  profileViewed: {
    subject: 'profiles.view.record',
    owner: 'profiles' as ServiceName,
    /** Views are counted in the gateway and sent in batches: `count` views of this page from this source. */
    data: z.object({ username: z.string().max(64), source: ViewSourceSchema, count: z.number().int().min(1).max(1_000_000).default(1) }),
  },
} as const;

/** Each service answers this with its health report. */
export const healthSubject = (service: ServiceName): string => `${service}.health.check`;
export const HealthRpcResponse = HealthReportSchema;
