import {
  BadRequestException,
  Body,
  Controller,
  ForbiddenException,
  Get,
  HttpCode,
  Inject,
  Param,
  Post,
  Put,
  Res,
  UploadedFiles,
  UseInterceptors,
} from '@nestjs/common';
import { AnyFilesInterceptor } from '@nestjs/platform-express';
import type { Response } from 'express';
import { Subjects, type CompanyDetails, type DoneReply, type Language, type SetLanguageReply, type SuccessMessageReply, type TokenClaims, type UploadImageReply } from '@bahi/contracts';
import type { NatsConnection } from 'nats';
import { AllowedBeforePasswordChange, CurrentUser, intParam, NATS_CONNECTION, NatsClient, Positions, Public, Tenant } from '@bahi/service-kit';
import { companyDetails, CompaniesService, mergeShareTemplates } from '../companies/companies.service';
import { PasswordsService } from '../auth/passwords.service';
import { MIN_PASSWORD, tenDigits } from '../common';
import { UsersService } from '../users/users.service';
import { LogoService, MAX_LOGO_BYTES } from './logo.service';
import { SetCompanyDetailsDto, SetLanguageDto, SetPinDto, UpdatePasswordDto } from './profile.dto';

/** 400 in the password form's shape: {success:false, message}. */
const passwordError = (message: string) => new BadRequestException({ statusCode: 400, success: false, message });

@Controller()
export class ProfileController {
  constructor(
    private readonly companies: CompaniesService,
    private readonly users: UsersService,
    private readonly logos: LogoService,
    private readonly passwords: PasswordsService,
    private readonly nats: NatsClient,
    @Inject(NATS_CONNECTION) private readonly nc: NatsConnection,
  ) {}

  /**
   * Sales and inventory cache company details and GST settings; every replica drops its copy.
   * Flushed before the reply, so the server has the event before the manager's next call.
   */
  private async changed(companyId: number): Promise<void> {
    await this.nats.emit(Subjects.identity.companyChanged, { companyId });
    await this.nc.flush().catch(() => undefined);
  }

  @Get('getCompanyDetails')
  async get(@Tenant() companyId: number): Promise<CompanyDetails> {
    return companyDetails(await this.companies.get(companyId));
  }

  @Post('setCompanyDetails')
  @HttpCode(200)
  @Positions('manager')
  async set(@Tenant() companyId: number, @Body() dto: SetCompanyDetailsDto): Promise<DoneReply> {
    if (dto.id !== companyId) throw new ForbiddenException('You can only edit your own company.');
    const current = await this.companies.get(companyId);
    const gst = this.companies.gstSettings(current, dto);
    // null resets every template to the shipped default.
    const templates = dto.share_templates === undefined ? {} : { share_templates: dto.share_templates === null ? null : mergeShareTemplates(current.share_templates, dto.share_templates) };
    await this.companies.model.updateOne(
      { id: companyId },
      {
        $set: {
          name: dto.name,
          add1: dto.add1,
          add2: dto.add2 ?? '',
          mob1: tenDigits(dto.mob1),
          mob2: tenDigits(dto.mob2),
          email: dto.email ?? '',
          ...(dto.upiId !== undefined ? { upiId: dto.upiId || null } : {}),
          ...gst,
          ...(dto.gst_filing !== undefined ? { gst_filing: dto.gst_filing } : {}),
          ...(dto.aato_above_5cr !== undefined ? { aato_above_5cr: dto.aato_above_5cr } : {}),
          ...(dto.pincode !== undefined ? { pincode: dto.pincode } : {}),
          ...(dto.place !== undefined ? { place: dto.place } : {}),
          ...(dto.ewaybill_threshold !== undefined ? { ewaybill_threshold: dto.ewaybill_threshold } : {}),
          ...(dto.itc_from_matched_only !== undefined ? { itc_from_matched_only: dto.itc_from_matched_only } : {}),
          ...(dto.bill_format !== undefined ? { bill_format: dto.bill_format } : {}),
          ...(dto.doc_language !== undefined ? { doc_language: dto.doc_language } : {}),
          ...(dto.share_expiry_days !== undefined ? { share_expiry_days: dto.share_expiry_days } : {}),
          ...templates,
          ...(dto.staff_max_discount_percent !== undefined ? { staff_max_discount_percent: dto.staff_max_discount_percent } : {}),
          ...(dto.walkin_credit !== undefined ? { walkin_credit: dto.walkin_credit } : {}),
          ...(dto.staff_expenses !== undefined ? { staff_expenses: dto.staff_expenses } : {}),
          ...(dto.require_register !== undefined ? { require_register: dto.require_register } : {}),
        },
      },
    );
    await this.changed(companyId);
    return { done: true };
  }

  /** Multipart field `image` (or `file`): PNG, JPEG or WebP up to 2 MB. */
  @Post('manage/profile/edit/:id/uploadProfileImage')
  @Positions('manager')
  @UseInterceptors(AnyFilesInterceptor({ limits: { fileSize: MAX_LOGO_BYTES, files: 1, fields: 10 } }))
  async upload(
    @Tenant() companyId: number,
    @Param('id', intParam('id')) id: number,
    @UploadedFiles() files: { fieldname: string; buffer: Buffer }[] | undefined,
  ): Promise<UploadImageReply> {
    if (id !== companyId) throw new ForbiddenException('You can only change the logo of your own company.');
    const file = (files ?? []).find((f) => f.fieldname === 'image' || f.fieldname === 'file');
    if (!file) throw new BadRequestException("Send the image as a multipart file in the field 'image'.");
    const fileName = await this.logos.store(companyId, file.buffer);
    await this.changed(companyId);
    return { fileName };
  }

  /** Public and cacheable, like an object-storage URL; the ETag changes with each upload. */
  @Get('companyLogo/:companyId')
  @Public()
  async logo(@Param('companyId', intParam('companyId')) companyId: number, @Res() res: Response) {
    const logo = await this.logos.open(companyId);
    res.setHeader('Content-Type', logo.contentType);
    res.setHeader('Content-Length', String(logo.length));
    res.setHeader('Cache-Control', 'public, max-age=300');
    res.setHeader('ETag', logo.etag);
    logo.stream.on('error', () => res.destroy());
    logo.stream.pipe(res);
  }

  /** The caller's own screen language (any position); the shell applies it at each sign-in. */
  @Put('profile/language')
  @HttpCode(200)
  async setLanguage(@CurrentUser() me: TokenClaims, @Body() dto: SetLanguageDto): Promise<SetLanguageReply> {
    const language = dto.language as Language;
    const { matchedCount } = await this.users.model.updateOne({ id: me.uid }, { $set: { language } });
    if (!matchedCount) throw new ForbiddenException('Your account no longer exists.');
    return { success: true, language };
  }

  /** A manager's discount-approval PIN (issue 28): the current password proves it is them. */
  @Put('profile/pin')
  @HttpCode(200)
  @Positions('manager')
  async setPin(@CurrentUser() me: TokenClaims, @Body() dto: SetPinDto): Promise<SuccessMessageReply> {
    const user = await this.users.model.findOne({ id: me.uid });
    if (!user) throw new ForbiddenException('Your account no longer exists.');
    if (!(await this.passwords.verify(user.passwordHash, dto.current_password))) throw passwordError('Current password is incorrect.');
    // A new PIN also ends an earlier PIN lock.
    await this.users.model.updateOne({ id: me.uid }, { $set: { pinHash: await this.passwords.hash(dto.pin), pinFailures: 0, pinLockedUntil: null } });
    return { success: true, message: 'Approval PIN saved.' };
  }

  /** The one call (with logout) a temporary password's token may make. */
  @Post('manage/profile/edit/updatePassword')
  @HttpCode(200)
  @AllowedBeforePasswordChange()
  async updatePassword(@CurrentUser() me: TokenClaims, @Body() dto: UpdatePasswordDto): Promise<SuccessMessageReply> {
    if (dto.new_password !== dto.re_type_new_password) throw passwordError('Password Do Not Match');
    if (dto.new_password.length < MIN_PASSWORD) throw passwordError(`New password must be at least ${MIN_PASSWORD} characters.`);
    const user = await this.users.model.findOne({ id: me.uid });
    if (!user) throw new ForbiddenException('Your account no longer exists.');
    if (!(await this.passwords.verify(user.passwordHash, dto.current_password))) throw passwordError('Current password is incorrect.');
    if (dto.current_password === dto.new_password) throw passwordError('The new password must differ from the current one.');
    await this.users.setPassword(user, dto.new_password, { byAdmin: false, keepSid: me.sid });
    return { success: true, message: 'Password Updated Successfully' };
  }
}
