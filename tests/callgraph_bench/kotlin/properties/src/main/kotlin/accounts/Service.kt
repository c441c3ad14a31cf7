package accounts

class UserService(private val repo: UserRepository, val audit: AuditLog = AuditLog()) {
    private val cache = InMemoryUsers()
    private lateinit var lastUser: User
    var fallback: User? = null

    fun register(id: Int, email: String): User {
        val user = User(id, email)
        repo.save(user)
        cache.save(user)
        audit.write("registered ${user.domain()}")
        lastUser = user
        return user
    }

    fun lookup(id: Int): User? {
        val cached = cache.find(id)
        if (cached != null) return cached
        return repo.find(id)?.also { cache.save(it) }
    }

    fun domainOf(id: Int): String {
        val user: User = lookup(id) ?: fallback!!
        return user.domain()
    }

    fun last() = lastUser

    fun lastDomain(): String = last().normalized().domain()

    fun stats(): String {
        fun pct(part: Int): String = "$part/${audit.size()}"
        return pct(cache.count())
    }
}
