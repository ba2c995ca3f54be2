import { Db } from '../transaction-context';
import { AdministratorEntity } from '../entities';

export class AdministratorsRepository {
  constructor(private readonly db: Db) {}

  private repo() {
    return this.db.manager().getRepository(AdministratorEntity);
  }

  insert(accountId: string, values: Omit<AdministratorEntity, 'id' | 'accountId'>): Promise<AdministratorEntity> {
    return this.repo().save(this.repo().create({ ...values, accountId }));
  }

  findById(accountId: string, id: string): Promise<AdministratorEntity | null> {
    return this.repo().findOneBy({ accountId, id });
  }

  listAll(accountId: string): Promise<AdministratorEntity[]> {
    return this.repo().find({ where: { accountId }, order: { registrationDate: 'ASC', id: 'ASC' } });
  }
}
