import { Injectable, PipeTransform } from '@nestjs/common';
import { InvalidFieldError } from '../../../common/errors/domain-errors';
import { InformationSource } from '../preference-values';
import { informationSourceDuplicateIssues } from './information-source-duplicates';

/**
 * Runs after the global validation pipe on a create or update body: rejects information sources
 * that repeat a type or a priority, a rule that spans list elements and so is not a field decorator.
 */
@Injectable()
export class UniqueInformationSourcesPipe implements PipeTransform {
  transform<T extends { information_sources?: InformationSource[] }>(body: T): T {
    const issues = informationSourceDuplicateIssues(body.information_sources, [
      'body',
      'information_sources',
    ]);
    if (issues.length > 0) throw new InvalidFieldError(issues);
    return body;
  }
}
