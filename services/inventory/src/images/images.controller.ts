import { BadRequestException, Controller, Get, HttpCode, Param, Post, Res, UploadedFiles, UseInterceptors } from '@nestjs/common';
import { AnyFilesInterceptor } from '@nestjs/platform-express';
import type { Response } from 'express';
import { Positions, Public, Tenant } from '@bahi/service-kit';
import { intParam } from '../common';
import { DEFAULT_IMAGE } from '../products/products.service';
import { DEFAULT_IMAGE_SVG, ImagesService, MAX_IMAGE_BYTES } from './images.service';

@Controller()
export class ImagesController {
  constructor(private readonly images: ImagesService) {}

  /** Multipart field `image` (or `file`): PNG, JPEG or WebP up to 2 MB. */
  @Post('updateProductImage/:id')
  @HttpCode(200)
  @Positions('manager')
  @UseInterceptors(AnyFilesInterceptor({ limits: { fileSize: MAX_IMAGE_BYTES, files: 1, fields: 10 } }))
  async upload(@Tenant() companyId: number, @Param('id') idRaw: string, @UploadedFiles() files: { fieldname: string; buffer: Buffer }[] | undefined) {
    const id = intParam('id', idRaw);
    const file = (files ?? []).find((f) => f.fieldname === 'image' || f.fieldname === 'file');
    if (!file) throw new BadRequestException("Send the image as a multipart file in the field 'image'.");
    return { fileName: await this.images.store(companyId, id, file.buffer) };
  }

  /** Public by unguessable name; a stored name never changes content, so it caches for long. */
  @Get('productImage/:fileName')
  @Public()
  async image(@Param('fileName') fileName: string, @Res() res: Response) {
    if (fileName === DEFAULT_IMAGE) {
      res.setHeader('Content-Type', 'image/svg+xml');
      res.setHeader('Cache-Control', 'public, max-age=86400');
      res.send(DEFAULT_IMAGE_SVG);
      return;
    }
    const img = await this.images.open(fileName);
    res.setHeader('Content-Type', img.contentType);
    res.setHeader('Content-Length', String(img.length));
    res.setHeader('Cache-Control', 'public, max-age=31536000, immutable');
    img.stream.on('error', () => res.destroy());
    img.stream.pipe(res);
  }
}
