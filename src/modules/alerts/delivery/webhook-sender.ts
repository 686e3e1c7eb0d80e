import { Injectable } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';

/** A fresh signing secret in the Standard Webhooks form (`whsec_` + base64 of 24 random bytes). */
export function newWebhookSecret(): string {
  return `whsec_${randomBytes(24).toString('base64')}`;
}

/** Posts one signed message (Standard Webhooks: webhook-id, webhook-timestamp, webhook-signature). */
@Injectable()
export class WebhookSender {
  async send(
    url: string,
    secret: string,
    message: { id: string; timestamp: Date; payload: unknown },
    timeoutMs: number,
  ): Promise<void> {
    const body = JSON.stringify(message.payload);
    const signature = new Webhook(secret).sign(message.id, message.timestamp, body);
    const response = await fetch(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'webhook-id': message.id,
        'webhook-timestamp': String(Math.floor(message.timestamp.getTime() / 1000)),
        'webhook-signature': signature,
      },
      body,
      redirect: 'manual',
      signal: AbortSignal.timeout(timeoutMs),
    });
    await response.body?.cancel();
    if (response.status < 200 || response.status >= 300)
      throw new Error(`receiver answered ${response.status}`);
  }
}
