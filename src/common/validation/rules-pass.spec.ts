import { plainToInstance, Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsDefined,
  IsInt,
  IsOptional,
  IsString,
  Min,
  validate,
  ValidateIf,
  ValidateNested,
  ValidationArguments,
  ValidatorConstraint,
  ValidatorConstraintInterface,
  Validate,
} from 'class-validator';
import { RebalanceRequestDto } from '../../modules/portfolio/dto/rebalance-request.dto';
import { passesRules } from './rules-pass';
import { memoizeValidationRules } from './validation-rules-memo';

class Tag {
  @IsString()
  name: string;
}

class Item {
  @IsInt()
  @Min(1)
  quantity: number;

  @IsOptional()
  @IsString({ each: true })
  @ArrayMaxSize(2)
  labels?: string[];

  @ValidateIf((item: Item) => item.quantity > 5)
  @IsString()
  reason?: string;

  @IsOptional()
  @ValidateNested({ each: true })
  @Type(() => Tag)
  tags?: Tag[];

  @IsOptional()
  @ValidateNested()
  @Type(() => Tag)
  main?: Tag;
}

class Required {
  @IsDefined()
  @IsInt()
  count: number;
}

@ValidatorConstraint({ async: true })
class EventuallyTrue implements ValidatorConstraintInterface {
  validate(): Promise<boolean> {
    return Promise.resolve(true);
  }
}

class Checked {
  @Validate(EventuallyTrue)
  code: string;
}

class NoRules {
  name: string;
}

const OPTIONS = { whitelist: true, forbidUnknownValues: true, validationError: { target: false } };

/** class-validator's verdict on its own instance (whitelisting changes the one it is given). */
async function classValidatorPasses(type: new () => object, plain: object): Promise<boolean> {
  return (await validate(plainToInstance(type, plain), OPTIONS)).length === 0;
}

const ITEMS: [string, object][] = [
  ['a bare valid item', { quantity: 1 }],
  [
    'every field valid',
    { quantity: 6, labels: ['a', 'b'], reason: 'why', tags: [{ name: 'x' }], main: { name: 'y' } },
  ],
  ['a condition that leaves its rule out', { quantity: 2, reason: 7 }],
  ['a condition that applies its rule', { quantity: 6, reason: 7 }],
  ['a rule broken', { quantity: 0 }],
  ['a wrong type', { quantity: '1' }],
  ['a required field missing', {}],
  ['an element of an each rule broken', { quantity: 1, labels: ['a', 3] }],
  ['a list over its cap', { quantity: 1, labels: ['a', 'b', 'c'] }],
  ['a nested element broken', { quantity: 1, tags: [{ name: 'x' }, { name: 3 }] }],
  ['a nested element that is not an object', { quantity: 1, tags: [{ name: 'x' }, 4] }],
  ['a nested element that is null', { quantity: 1, tags: [null] }],
  ['a nested list that is not a list', { quantity: 1, tags: 'x' }],
  ['a nested object broken', { quantity: 1, main: {} }],
  ['a nested object that is a string', { quantity: 1, main: 'y' }],
];

const targets = (count: number) =>
  Array.from({ length: count }, (_, index) => ({ symbol: `S${index}`, weight: 100 / count }));

const REBALANCE_BODIES: [string, object][] = [
  ['the benchmark body', { targets: targets(50), dry_run: true }],
  [
    'sector targets with every option',
    { sector_targets: [{ sector: 'technology', weight: 100 }], tolerance: 1, cash: 10, fractional: true },
  ],
  [
    'both lists (the service refuses that, not the rules)',
    { targets: targets(2), sector_targets: [{ sector: 'energy', weight: 100 }] },
  ],
  ['a lower-case symbol', { targets: [{ symbol: 'aapl', weight: 100 }] }],
  ['a weight over 100', { targets: [{ symbol: 'AAPL', weight: 101 }] }],
  ['a weight as text', { targets: [{ symbol: 'AAPL', weight: '100' }] }],
  ['a target without a weight', { targets: [{ symbol: 'AAPL' }] }],
  ['an unknown sector', { sector_targets: [{ sector: 'crypto', weight: 100 }] }],
  ['an empty list', { targets: [] }],
  ['101 targets', { targets: targets(101) }],
  ['dry_run null', { targets: targets(1), dry_run: null }],
  ['dry_run as text', { targets: targets(1), dry_run: 'true' }],
  ['a negative cash', { targets: targets(1), cash: -1 }],
  ['an account id as text', { targets: targets(1), account_id: '1' }],
  ['targets null', { targets: null }],
];

describe('passesRules', () => {
  beforeAll(() => memoizeValidationRules());

  it.each(ITEMS)('agrees with class-validator: %s', async (_name, plain) => {
    const sut = passesRules(plainToInstance(Item, plain));

    expect(sut).toBe(await classValidatorPasses(Item, plain));
  });

  it('finds the benchmark body valid, as class-validator does', () => {
    expect(passesRules(plainToInstance(RebalanceRequestDto, REBALANCE_BODIES[0][1]))).toBe(true);
  });

  it.each(REBALANCE_BODIES)('agrees with class-validator on a rebalance body: %s', async (_name, plain) => {
    const sut = passesRules(plainToInstance(RebalanceRequestDto, plain));

    expect(sut).toBe(await classValidatorPasses(RebalanceRequestDto, plain));
  });

  it.each([
    [Item, { quantity: 1, extra: true }],
    [Item, { quantity: 1, tags: [{ name: 'x', extra: 1 }] }],
    [RebalanceRequestDto, { targets: [{ symbol: 'AAPL', weight: 100, note: 'x' }] }],
  ] as [new () => object, object][])(
    'is not sure of what whitelisting strips, so class-validator strips it: %p %p',
    async (type, plain) => {
      expect(passesRules(plainToInstance(type, plain))).toBe(false);
      expect(await classValidatorPasses(type, plain)).toBe(true);
    },
  );

  it('is not sure of a class without rules, @IsDefined or an async constraint', async () => {
    expect(passesRules(plainToInstance(NoRules, { name: 'x' }))).toBe(false);
    expect(passesRules(plainToInstance(Required, { count: 1 }))).toBe(false);
    expect(passesRules(plainToInstance(Checked, { code: 'x' }))).toBe(false);
    expect(await classValidatorPasses(Required, { count: 1 })).toBe(true);
    expect(await classValidatorPasses(Checked, { code: 'x' })).toBe(true);
  });

  it('hands each constraint the arguments class-validator would', () => {
    const seen: ValidationArguments[] = [];
    @ValidatorConstraint()
    class Recorded implements ValidatorConstraintInterface {
      validate(_value: unknown, args: ValidationArguments): boolean {
        seen.push(args);
        return true;
      }
    }
    class Coded {
      @Validate(Recorded, [3])
      code: string;
    }
    const instance = plainToInstance(Coded, { code: 'x' });

    expect(passesRules(instance)).toBe(true);
    expect(seen).toEqual([
      { targetName: 'Coded', property: 'code', object: instance, value: 'x', constraints: [3] },
    ]);
  });
});
