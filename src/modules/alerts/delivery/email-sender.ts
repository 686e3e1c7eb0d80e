import { Inject, Injectable, OnApplicationShutdown } from '@nestjs/common';
import { ConfigType } from '@nestjs/config';
import { createTransport, Transporter } from 'nodemailer';
import { alertsConfig } from '../../../config/alerts.config';

export interface Email {
  to: string;
  subject: string;
  text: string;
  html: string;
  unsubscribeUrl: string;
}

/** Email over SMTP (SMTP_URL); with it unset, `available` is false and nothing is sent. */
@Injectable()
export class EmailSender implements OnApplicationShutdown {
  private transport: Transporter | null = null;

  constructor(@Inject(alertsConfig.KEY) private readonly config: ConfigType<typeof alertsConfig>) {}

  get available(): boolean {
    return this.config.smtpUrl !== null;
  }

  async send(email: Email): Promise<void> {
    if (!this.config.smtpUrl) throw new Error('email is not configured (SMTP_URL)');
    this.transport ??= createTransport(this.config.smtpUrl);
    await this.transport.sendMail({
      from: this.config.emailFrom,
      to: email.to,
      subject: email.subject,
      text: email.text,
      html: email.html,
      list: { unsubscribe: { url: email.unsubscribeUrl, comment: 'Unsubscribe from alert emails' } },
    });
  }

  onApplicationShutdown(): void {
    this.transport?.close();
  }
}
