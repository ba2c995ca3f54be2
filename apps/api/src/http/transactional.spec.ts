import { UseInterceptors } from '@nestjs/common';
import { INTERCEPTORS_METADATA } from '@nestjs/common/constants';
import { DiscoveryService, MetadataScanner, ModulesContainer } from '@nestjs/core';
import { JOURNAL_METADATA, Journal, JournalInterceptor } from '@twofold/journal';
import { startTestApp, TestApp } from '../../test/testing/test-app';
import { JournaledChange, TransactionInterceptor, Transactional } from './transactional';

class OtherInterceptor {}

class Handlers {
  @Transactional()
  @Journal('Group', 'Create')
  transactionalAbove(): void {
    /* stands for a controller method */
  }

  @Journal('Group', 'Create')
  @UseInterceptors(OtherInterceptor)
  @Transactional()
  transactionalBelow(): void {
    /* stands for a controller method */
  }

  @UseInterceptors(OtherInterceptor)
  @JournaledChange('Group', 'Update', { fromRequest: ({ params }) => ({ GroupId: params['id'] }) })
  journaledChange(): void {
    /* stands for a controller method */
  }
}

const interceptorsOf = (handler: () => void): unknown[] => Reflect.getMetadata(INTERCEPTORS_METADATA, handler);

describe('@Transactional()', () => {
  it('puts the transaction outside every other interceptor, whatever the order of the decorators', () => {
    expect(interceptorsOf(Handlers.prototype.transactionalAbove)).toEqual([TransactionInterceptor, JournalInterceptor]);
    expect(interceptorsOf(Handlers.prototype.transactionalBelow)).toEqual([TransactionInterceptor, OtherInterceptor, JournalInterceptor]);
  });

  it('is part of every JournaledChange, outside its journal', () => {
    expect(interceptorsOf(Handlers.prototype.journaledChange)).toEqual([TransactionInterceptor, JournalInterceptor, OtherInterceptor]);
    expect(Reflect.getMetadata(JOURNAL_METADATA, Handlers.prototype.journaledChange)).toMatchObject({ object: 'Group', action: 'Update' });
  });

  describe('in the app', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await startTestApp();
    });
    afterAll(() => t.close());

    it('is on every @Journal handler, outside the journal', () => {
      const scanner = new MetadataScanner();
      const journaled: string[] = [];
      for (const wrapper of new DiscoveryService(t.app.get(ModulesContainer)).getControllers()) {
        const prototype = Object.getPrototypeOf(wrapper.instance);
        for (const name of scanner.getAllMethodNames(prototype)) {
          const handler = prototype[name];
          if (!Reflect.getMetadata(JOURNAL_METADATA, handler)) continue;
          journaled.push(`${wrapper.name}.${name}`);
          expect([`${wrapper.name}.${name}`, interceptorsOf(handler)[0]]).toEqual([`${wrapper.name}.${name}`, TransactionInterceptor]);
        }
      }
      expect(journaled.length).toBeGreaterThanOrEqual(33);
    });
  });
});
