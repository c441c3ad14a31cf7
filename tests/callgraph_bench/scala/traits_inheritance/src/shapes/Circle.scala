package shapes

import scala.math.Pi

final case class Circle(r: Double) extends Shape with Scalable {
  def area: Double = Pi * r * r
  def perimeter: Double = 2 * Pi * r
  def scale(factor: Double): Circle = copy(r = r * factor)
  override def describe(): String = s"circle r=$r, " + super.describe()
}
