package io.carfit;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks a record component the schema requires but allows to be null ({@code auth.set}'s
 * {@code token}): null is written as {@code null}. Every other null component is left out of the
 * request, which the library reads as the member's absence.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.RECORD_COMPONENT)
public @interface SendsNull {
}
