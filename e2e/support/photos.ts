import type { Page } from '@playwright/test';

/** A photo the browser draws (a pink-grey membrane, a dark hole), as a PNG file's bytes. */
export async function drawnPhoto(page: Page): Promise<Buffer> {
  const dataUrl = await page.evaluate(() => {
    const canvas = document.createElement('canvas');
    canvas.width = 640;
    canvas.height = 480;
    const context = canvas.getContext('2d') as CanvasRenderingContext2D;
    context.fillStyle = '#000';
    context.fillRect(0, 0, 640, 480);
    context.fillStyle = '#cdbfc3';
    context.beginPath();
    context.ellipse(320, 240, 200, 185, 0, 0, Math.PI * 2);
    context.fill();
    context.fillStyle = '#6e1f1c';
    context.beginPath();
    context.ellipse(300, 260, 70, 60, 0, 0, Math.PI * 2);
    context.fill();
    return canvas.toDataURL('image/png');
  });
  return Buffer.from(dataUrl.split(',')[1] as string, 'base64');
}
