import { Injectable, PipeTransform } from '@nestjs/common';
import { PydanticValidationPipe } from '../../../common/validation/pydantic-validation.pipe';
import { InvalidFieldError } from '../../../common/errors/domain-errors';
import { ValidationIssue } from '../../../common/validation/validation-issue';
import { WizardRequestDto } from '../dto/wizard-request.dto';
import { findMisplacedWizardKeys, isPlainObject } from '../wizard-steps';
import { informationSourceDuplicateIssues } from './information-source-duplicates';

/**
 * Validates a wizard body. Unlike other bodies, whose unknown keys are dropped, an unknown step
 * or a field sent in the wrong step is rejected at its own `loc`: silently ignoring it would
 * lose what the user entered on that wizard page.
 */
@Injectable()
export class WizardRequestPipe implements PipeTransform<unknown, Promise<WizardRequestDto>> {
  private readonly validation = new PydanticValidationPipe();

  async transform(body: unknown): Promise<WizardRequestDto> {
    const misplaced = misplacedKeyIssues(body);
    const request = await this.validate(body, misplaced);
    const issues = [
      ...misplaced,
      ...informationSourceDuplicateIssues(request.step_data.information?.information_sources, [
        'body',
        'step_data',
        'information',
        'information_sources',
      ]),
    ];
    if (issues.length > 0) throw new InvalidFieldError(issues);
    return request;
  }

  private async validate(body: unknown, earlierIssues: ValidationIssue[]): Promise<WizardRequestDto> {
    try {
      return (await this.validation.transform(body, {
        type: 'body',
        metatype: WizardRequestDto,
      })) as WizardRequestDto;
    } catch (error) {
      if (error instanceof InvalidFieldError) {
        throw new InvalidFieldError([...earlierIssues, ...error.issues]);
      }
      throw error;
    }
  }
}

function misplacedKeyIssues(body: unknown): ValidationIssue[] {
  if (!isPlainObject(body) || !isPlainObject(body.step_data)) return [];
  return findMisplacedWizardKeys(body.step_data).map((path) => ({
    loc: ['body', 'step_data', ...path],
    msg: 'Extra inputs are not permitted',
    type: 'extra_forbidden',
  }));
}
