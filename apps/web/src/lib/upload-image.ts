import { IMAGE_UPLOAD_MAX_BYTES, imageUploadResponseSchema } from '@cdms/contract';
import { apiRequest } from './api-client.ts';

/** Why an image was refused before it was sent. */
export class ImageRefusedError extends Error {
  constructor(readonly reason: 'not_image' | 'too_large') {
    super(reason);
    this.name = 'ImageRefusedError';
  }
}

/**
 * Uploads an editor image (prototype-spec §7 editorUpload: multipart field `upload`, answer
 * `{ imageUrl }`). Only images are sent (§5); the server checks the bytes again and answers 415
 * for anything that only claims to be one.
 */
export async function uploadImage(file: File): Promise<string> {
  if (!file.type.startsWith('image/')) throw new ImageRefusedError('not_image');
  if (file.size > IMAGE_UPLOAD_MAX_BYTES) throw new ImageRefusedError('too_large');
  const formData = new FormData();
  formData.append('upload', file);
  const response = await apiRequest<unknown>('/api/uploads/images', { method: 'POST', formData });
  return imageUploadResponseSchema.parse(response).imageUrl;
}
