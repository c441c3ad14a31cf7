pub mod account;

use account::{Account, Error};

pub fn transfer(from: &mut Account, to: &mut Account, amount: u64) -> Result<(), Error> {
    let taken = from.withdraw(amount)?;
    to.deposit(taken);
    Ok(())
}

pub fn find_and_close(accounts: &mut Vec<Account>, id: u32) -> Option<u64> {
    let acc = account::find(accounts, id)?;
    Some(acc.close())
}

pub fn open_default() -> Account {
    let acc = Account::open(1).expect("valid id");
    acc.audit();
    if let Some(copy) = Account::open(2) {
        copy.audit();
    }
    match Account::open(3) {
        Some(other) => other.audit(),
        None => {}
    }
    acc
}
