import { getMetadataStorage, IsInt, IsString, Max, validate } from 'class-validator';
import { memoizeValidationRules } from './validation-rules-memo';

class Order {
  @IsInt()
  @Max(10)
  quantity: number;
}

const order = (fields: Record<string, unknown>) => Object.assign(new Order(), fields);
const failedRules = async (value: Order) =>
  (await validate(value, { forbidUnknownValues: true })).flatMap((error) =>
    Object.keys(error.constraints ?? {}),
  );

describe('memoizeValidationRules', () => {
  beforeAll(() => memoizeValidationRules());

  it('hands out the same rules for a class until one is registered', () => {
    const storage = getMetadataStorage();
    const first = storage.getTargetValidationMetadatas(Order, '', true, false);

    expect(first.map((rule) => rule.name).sort()).toEqual(['isInt', 'max']);
    expect(storage.getTargetValidationMetadatas(Order, '', true, false)).toBe(first);
    expect(Object.isFrozen(first)).toBe(true);
  });

  it('validates as before and sees a rule registered after the first validation', async () => {
    expect(await failedRules(order({ quantity: 11 }))).toEqual(['max']);
    expect(await failedRules(order({ quantity: 3, label: 4 }))).toEqual([]);

    IsString()(Order.prototype, 'label');

    expect(await failedRules(order({ quantity: 3, label: 4 }))).toEqual(['isString']);
    expect(await failedRules(order({ quantity: 3, label: 'ok' }))).toEqual([]);
  });

  it('is installed once per store', () => {
    const storage = getMetadataStorage();
    const lookUp = storage.getTargetValidationMetadatas;
    memoizeValidationRules();
    expect(storage.getTargetValidationMetadatas).toBe(lookUp);
  });
});
