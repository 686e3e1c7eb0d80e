import type { ConfigType } from '@nestjs/config';
import type { JobRunner } from '../../common/jobs/job-runner';
import type { alertsConfig } from '../../config/alerts.config';
import { AlertEvaluatorService } from './alert-evaluator.service';
import { AlertJobs, DELIVER_QUEUE, EVALUATE_QUEUE } from './alert-jobs';
import type { AlertRulesRepository } from './alert-rules.repository';
import type { BriefingSchedulerService } from './delivery/briefing-scheduler.service';
import type { NotificationDelivererService } from './delivery/notification-deliverer.service';

/** A job runner that records the runs asked for. */
function recordingRunner() {
  const requested: string[] = [];
  const runner = {
    enabled: true,
    define: () => undefined,
    request: async (name: string) => {
      requested.push(name);
    },
  } as unknown as JobRunner;
  return { runner, requested };
}

function alertJobs(work: { evaluate: boolean; deliver: boolean }) {
  const { runner, requested } = recordingRunner();
  const evaluator = { hasWork: async () => work.evaluate } as unknown as AlertEvaluatorService;
  const deliverer = { hasWork: async () => work.deliver } as unknown as NotificationDelivererService;
  const sut = new AlertJobs(
    runner,
    evaluator,
    deliverer,
    {} as BriefingSchedulerService,
    { evaluationIntervalMs: 5_000 } as ConfigType<typeof alertsConfig>,
  );
  return { sut, requested };
}

describe('AlertJobs.askForDueRuns (the ticker)', () => {
  it('asks for no run when there is no rule to evaluate and nothing to deliver', async () => {
    const { sut, requested } = alertJobs({ evaluate: false, deliver: false });
    await sut.askForDueRuns();
    expect(requested).toEqual([]);
  });

  it('asks for each run that has something to do', async () => {
    const evaluating = alertJobs({ evaluate: true, deliver: false });
    await evaluating.sut.askForDueRuns();
    expect(evaluating.requested).toEqual([EVALUATE_QUEUE]);

    const delivering = alertJobs({ evaluate: false, deliver: true });
    await delivering.sut.askForDueRuns();
    expect(delivering.requested).toEqual([DELIVER_QUEUE]);
  });
});

describe('AlertEvaluatorService.evaluate without rules to evaluate', () => {
  it('reads nothing past the one question (the cron pass of an idle replica)', async () => {
    const asked: string[] = [];
    const rules = new Proxy({} as AlertRulesRepository, {
      get: (_target, method: string) => async () => {
        asked.push(method);
        if (method === 'anyToEvaluate') return false;
        throw new Error(`${method} was called`);
      },
    });
    /** A collaborator whose every read fails: the pass must not reach it. */
    const unreachable = <T>(): T =>
      new Proxy({}, { get: () => () => Promise.reject(new Error('read')) }) as T;
    const sut = new AlertEvaluatorService(
      rules,
      unreachable(),
      unreachable(),
      unreachable(),
      unreachable(),
      unreachable(),
      unreachable(),
      unreachable(),
      unreachable(),
    );

    expect(await sut.evaluate()).toEqual({ rearmed: 0, evaluated: 0, fired: 0 });
    expect(asked).toEqual(['anyToEvaluate']);
  });
});
