#[derive(Debug)]
pub enum Error {
    Insufficient,
}

pub struct Account {
    pub id: u32,
    balance: u64,
}

impl Account {
    pub fn open(id: u32) -> Option<Account> {
        if id == 0 {
            None
        } else {
            Some(Account { id, balance: 0 })
        }
    }

    pub fn withdraw(&mut self, amount: u64) -> Result<u64, Error> {
        if self.balance < amount {
            return Err(Error::Insufficient);
        }
        self.balance -= amount;
        Ok(amount)
    }

    pub fn deposit(&mut self, amount: u64) {
        self.balance += amount;
        self.audit();
    }

    pub fn close(&mut self) -> u64 {
        let rest = self.balance;
        self.balance = 0;
        rest
    }

    pub fn audit(&self) {}
}

pub fn find(accounts: &mut Vec<Account>, id: u32) -> Option<&mut Account> {
    accounts.iter_mut().find(|a| a.id == id)
}
